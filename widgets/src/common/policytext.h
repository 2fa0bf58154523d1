// Translated text for the execution policy's stable ids (core speaks English only): the labels,
// values and reasons the System, Train and Analyze panes show for each choice.
#pragma once

#include <QCoreApplication>
#include <QString>

#include <string>

#include "fisura/policy.h"

namespace fisura::ui
{

/// "Device", "Precision", ... for PolicyChoice::what; unknown ids come back as they are.
QString policyChoiceLabel(const std::string& what);
/// "on", "off", "processor (CPU)", ...; numbers, precisions and GPU names pass through.
QString policyChoiceValue(const std::string& value);
/// The translated reason for PolicyChoice::reasonId (with its argument); the untranslated
/// sentence when the id is unknown.
QString policyChoiceReason(const PolicyChoice& choice);

class PolicyText
{
    Q_DECLARE_TR_FUNCTIONS(PolicyText)
    friend QString policyChoiceLabel(const std::string&);
    friend QString policyChoiceValue(const std::string&);
    friend QString policyChoiceReason(const PolicyChoice&);
};

} // namespace fisura::ui
