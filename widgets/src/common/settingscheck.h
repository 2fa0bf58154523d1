// The settings file (QSettings' native format: an INI file under ~/.config/Fisura on Linux) is
// checked once at start: a file Qt cannot read or parse, or that holds binary garbage, is moved
// aside so that Fisura starts with its defaults and can save settings again, and the user is
// told where the damaged copy is. Values of the wrong type fall back to their defaults
// (Preference<T>).
#pragma once

#include <QCoreApplication>
#include <QString>

namespace fisura::ui
{

struct SettingsCheck {
    QString file;   ///< the settings file
    QString keptAs; ///< where the damaged file was moved ("" when it could not be moved)
    bool damaged = false;
};

/// Checks QSettings()'s file; call it before anything reads settings.
SettingsCheck checkSettingsFile();

/// The translated notice for a damaged settings file ("" when it was fine).
QString settingsCheckMessage(const SettingsCheck& check);

class SettingsCheckText
{
    Q_DECLARE_TR_FUNCTIONS(fisura::ui::SettingsCheckText)
    friend QString settingsCheckMessage(const SettingsCheck&);
};

} // namespace fisura::ui
