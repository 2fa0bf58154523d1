#include "common/settingscheck.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSettings>
#include <QStringDecoder>

namespace fisura::ui
{

namespace
{
/// Binary garbage Qt's lenient INI reader would take for keys: NUL bytes or invalid UTF-8.
bool looksBinary(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return false;
    const QByteArray bytes = f.read(1 << 20);
    if (bytes.contains('\0'))
        return true;
    QStringDecoder utf8(QStringDecoder::Utf8);
    const QString text = utf8.decode(bytes);
    return utf8.hasError() || text.contains(QChar::ReplacementCharacter);
}
} // namespace

SettingsCheck checkSettingsFile()
{
    SettingsCheck check;
    bool formatError = false;
    {
        const QSettings settings;
        check.file = settings.fileName();
        formatError = settings.status() == QSettings::FormatError;
    }
    const QFileInfo info(check.file);
    if (!info.exists())
        return check;
    // Qt's INI reader takes almost anything (FormatError is rare), so garbage is looked for too.
    check.damaged = formatError || !info.isFile() || !info.isReadable() || looksBinary(check.file);
    if (!check.damaged)
        return check;
    const QString aside = check.file + QStringLiteral(".damaged");
    QFile::remove(aside);
    if (QFile::rename(check.file, aside) ||
        (info.isDir() && QFileInfo(check.file).dir().rename(check.file, aside)))
        check.keptAs = aside;
    QSettings().sync(); // forget what was read from the damaged file
    return check;
}

QString settingsCheckMessage(const SettingsCheck& check)
{
    if (!check.damaged)
        return {};
    QString text = SettingsCheckText::tr("The settings file %1 could not be read, so Fisura "
                                         "started with its default settings.")
                       .arg(check.file);
    if (!check.keptAs.isEmpty())
        text += QLatin1Char(' ') +
                SettingsCheckText::tr("The damaged file was kept as %1; you can delete it.")
                    .arg(check.keptAs);
    else
        text += QLatin1Char(' ') +
                SettingsCheckText::tr("Delete or rename that file so that your settings can be "
                                      "saved again.");
    return text;
}

} // namespace fisura::ui
