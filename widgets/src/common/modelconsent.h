// Consent to run a TorchScript module. Such a module is a program: loading it runs code stored in
// the file, so Fisura loads one only after the user agreed in a plain warning. The consent holds
// for the rest of the session and for that exact file (path, size and modification time): a
// file replaced or changed since asks again. Nothing is saved.
#pragma once

#include <QCoreApplication>
#include <QString>

#include "fisura/model.h"

class QWidget;

namespace fisura::ui
{

class ModelConsent
{
    Q_DECLARE_TR_FUNCTIONS(fisura::ui::ModelConsent)
public:
    /// Model::load options for `path`: the default size limit, and TorchScript allowed when the
    /// user agreed to this file in this session. Safe from any thread.
    static ModelLoadOptions optionsFor(const QString& path);
    static bool granted(const QString& path);
    static void grant(const QString& path);
    /// Asks (modal QMessageBox "torchScriptConsent": "Run code from this file" or Cancel) and
    /// remembers a yes. True when the user agreed.
    static bool ask(QWidget* parent, const QString& path);
    static void forgetAll(); ///< tests
};

} // namespace fisura::ui
