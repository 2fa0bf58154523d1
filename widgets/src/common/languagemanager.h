// Run-time language switching: installs Fisura's and Qt's translators. Installing a translator
// sends QEvent::LanguageChange to every widget, whose changeEvent() calls retranslateUi().
#pragma once

#include <QObject>
#include <QTranslator>

#include <memory>

#include "common/preference.h"

namespace fisura::ui
{

class LanguageManager : public QObject
{
    Q_OBJECT
public:
    enum class Language { System = 0, Spanish = 1, English = 2 };
    Q_ENUM(Language)

    static LanguageManager& instance();

    /// The remembered choice ("ui/language").
    static const Preference<int>& preference();

    Language language() const { return language_; }
    /// The locale name in effect ("es", "en").
    QString effectiveLocale() const { return effective_; }
    /// Switch now and remember the choice.
    void setLanguage(Language lang);
    /// Apply the remembered choice (at start-up).
    void applySaved();
    /// Switch for this run only, without remembering it (command line, screenshots).
    void applyForSession(Language lang) { apply(lang); }

Q_SIGNALS:
    void languageChanged();

private:
    LanguageManager() = default;
    void apply(Language lang);

    Language language_ = Language::System;
    QString effective_ = QStringLiteral("en");
    std::unique_ptr<QTranslator> fisura_;
    std::unique_ptr<QTranslator> qt_;
};

} // namespace fisura::ui
