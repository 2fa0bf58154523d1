#include "common/modelconsent.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QMessageBox>
#include <QMutex>
#include <QMutexLocker>
#include <QPushButton>
#include <QSet>

namespace fisura::ui
{

namespace
{

QMutex g_mutex;
QSet<QString>& consented()
{
    static QSet<QString> set;
    return set;
}

/// The file as consent knows it: canonical path, size and modification time; empty when absent.
QString identity(const QString& path)
{
    const QFileInfo fi(path);
    if (!fi.isFile())
        return {};
    return fi.canonicalFilePath() + QLatin1Char('\n') + QString::number(fi.size()) +
           QLatin1Char('\n') + QString::number(fi.lastModified().toMSecsSinceEpoch());
}

} // namespace

ModelLoadOptions ModelConsent::optionsFor(const QString& path)
{
    ModelLoadOptions o;
    o.allowTorchScript = granted(path);
    return o;
}

bool ModelConsent::granted(const QString& path)
{
    const QString id = identity(path);
    QMutexLocker lock(&g_mutex);
    return !id.isEmpty() && consented().contains(id);
}

void ModelConsent::grant(const QString& path)
{
    const QString id = identity(path);
    QMutexLocker lock(&g_mutex);
    if (!id.isEmpty())
        consented().insert(id);
}

void ModelConsent::forgetAll()
{
    QMutexLocker lock(&g_mutex);
    consented().clear();
}

bool ModelConsent::ask(QWidget* parent, const QString& path)
{
    QMessageBox box(parent);
    box.setObjectName(QStringLiteral("torchScriptConsent"));
    box.setIcon(QMessageBox::Warning);
    box.setWindowTitle(tr("Run code from this file?"));
    box.setText(tr("“%1” is a TorchScript module.").arg(QFileInfo(path).fileName()));
    box.setInformativeText(
        tr("A TorchScript module runs code stored in the file, with your permissions. Use it only "
           "when it comes from someone you trust.\n\n%1")
            .arg(QDir::toNativeSeparators(path)));
    QPushButton* run = box.addButton(tr("Run code from this file"), QMessageBox::AcceptRole);
    run->setObjectName(QStringLiteral("runCodeButton"));
    QPushButton* cancel = box.addButton(QMessageBox::Cancel);
    cancel->setObjectName(QStringLiteral("cancelButton"));
    box.setDefaultButton(cancel);
    box.setEscapeButton(cancel);
    box.exec();
    if (box.clickedButton() != run)
        return false;
    grant(path);
    return true;
}

} // namespace fisura::ui
