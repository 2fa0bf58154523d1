#include "common/languagemanager.h"

#include <QCoreApplication>
#include <QEvent>
#include <QLibraryInfo>
#include <QLocale>

namespace fisura::ui
{

LanguageManager& LanguageManager::instance()
{
    static LanguageManager m;
    return m;
}

const Preference<int>& LanguageManager::preference()
{
    static const Preference<int> p(QStringLiteral("ui/language"), int(Language::System));
    return p;
}

void LanguageManager::setLanguage(Language lang)
{
    preference().setValue(int(lang));
    apply(lang);
}

void LanguageManager::applySaved()
{
    const int v = preference().value();
    apply(v >= 0 && v <= 2 ? Language(v) : Language::System);
}

void LanguageManager::apply(Language lang)
{
    language_ = lang;
    QString code;
    switch (lang) {
    case Language::Spanish:
        code = QStringLiteral("es");
        break;
    case Language::English:
        code = QStringLiteral("en");
        break;
    case Language::System:
        code = QLocale::system().name().startsWith(QStringLiteral("es")) ? QStringLiteral("es")
                                                                         : QStringLiteral("en");
        break;
    }
    if (code == effective_ && fisura_)
        return;
    if (fisura_)
        QCoreApplication::removeTranslator(fisura_.get());
    if (qt_)
        QCoreApplication::removeTranslator(qt_.get());
    fisura_.reset();
    qt_.reset();
    effective_ = code;
    QLocale::setDefault(
        QLocale(code == QStringLiteral("es") ? QLocale::Spanish : QLocale::English));
    // Widgets copy the default locale when they are made; QApplication hands a LocaleChange to
    // every window without a locale of its own, which passes it on to their children, so spin
    // boxes, tables and plots made before the switch format numbers and times anew.
    if (auto* app = QCoreApplication::instance()) {
        QEvent localeChange(QEvent::LocaleChange);
        QCoreApplication::sendEvent(app, &localeChange);
    }
    // Installing or removing a translator posts QEvent::LanguageChange to every widget.
    auto t = std::make_unique<QTranslator>();
    if (t->load(QStringLiteral(":/i18n/fisura_") + code)) {
        QCoreApplication::installTranslator(t.get());
        fisura_ = std::move(t);
    }
    auto q = std::make_unique<QTranslator>();
    if (q->load(QLocale(code), QStringLiteral("qtbase"), QStringLiteral("_"),
                QLibraryInfo::path(QLibraryInfo::TranslationsPath))) {
        QCoreApplication::installTranslator(q.get());
        qt_ = std::move(q);
    }
    Q_EMIT languageChanged();
}

} // namespace fisura::ui
