#pragma once

#include <QCoreApplication>
#include <QString>

#include "fisura/status.h"

namespace fisura::ui
{

/// A translated sentence for a core error, followed by its untranslated detail (file names,
/// numbers, library messages) so support can still read it.
QString errorMessage(const Status& status);

/// "about 3 min" / "12 s" for an ETA in seconds; empty when unknown.
QString formatEta(double seconds);

class ErrorText
{
    Q_DECLARE_TR_FUNCTIONS(ErrorText)
    friend QString errorMessage(const Status&);
    friend QString formatEta(double);
};

} // namespace fisura::ui
