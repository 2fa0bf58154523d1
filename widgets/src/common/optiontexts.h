// The GUI's side of the option schema (fisura/options.h): a field takes its range, default,
// unit suffix and tooltip from the option's definition, and the tooltip's words from the one
// table of translated option texts here (core's help is English, for the command line).
#pragma once

#include <QCoreApplication>
#include <QString>

#include <string>

#include "fisura/options.h"

class QDoubleSpinBox;
class QSpinBox;
class QWidget;

namespace fisura::ui
{

/// The translated tooltip of the option `key` of `set`; empty when the table has none.
QString optionHelp(OptionSet set, const std::string& key);
/// The translated suffix a spin box shows for a unit (" px"); empty for units the field's
/// label names.
QString optionUnitSuffix(const std::string& unit);

/// Range, default value, unit suffix and tooltip of the option onto the box. The box keeps the
/// option's set and key as the properties "optionSet" and "optionKey", so retranslateOptions()
/// and tests find them.
void applyOption(QSpinBox* box, OptionSet set, const char* key);
void applyOption(QDoubleSpinBox* box, OptionSet set, const char* key);
/// Value `index` of a List option of numbers (one field of several): the option's range, its
/// default's value `index`, unit suffix and tooltip (property "optionIndex" as well).
void applyOptionItem(QDoubleSpinBox* box, OptionSet set, const char* key, int index);
/// The tooltip (and the properties) of an option shown by another widget: a check box, a combo.
void applyOptionText(QWidget* widget, OptionSet set, const char* key);
/// Tooltips and suffixes of every option widget below `root` again, in the current language.
void retranslateOptions(QWidget* root);

class OptionTexts
{
    Q_DECLARE_TR_FUNCTIONS(OptionTexts)
    friend QString optionHelp(OptionSet, const std::string&);
    friend QString optionUnitSuffix(const std::string&);
};

} // namespace fisura::ui
