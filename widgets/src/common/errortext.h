#pragma once

#include <QCoreApplication>
#include <QString>

#include "fisura/status.h"

namespace fisura::ui
{

/// A translated sentence for a core error and what to do about it (errorAdvice), then, on a line
/// of its own, its untranslated detail (file names, numbers, library messages) so the user sees
/// which file it is and support can still read it.
QString errorMessage(const Status& status);

/// What the user can do about a core error, translated ("" for Ok and Cancelled). A full disk and
/// a folder that cannot be written (IoError details "disk_full: ...", "read_only: ...") get their
/// own advice.
QString errorAdvice(const Status& status);

/// "about 3 min" / "12 s" for an ETA in seconds; empty when unknown.
QString formatEta(double seconds);

class ErrorText
{
    Q_DECLARE_TR_FUNCTIONS(ErrorText)
    friend QString errorMessage(const Status&);
    friend QString errorAdvice(const Status&);
    friend QString formatEta(double);
};

} // namespace fisura::ui
