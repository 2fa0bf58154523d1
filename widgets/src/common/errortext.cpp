#include "common/errortext.h"

#include <cmath>

namespace fisura::ui
{

QString errorMessage(const Status& s)
{
    QString text;
    switch (s.code()) {
    case ErrorCode::Ok:
        return ErrorText::tr("Done.");
    case ErrorCode::InvalidArgument:
        text = ErrorText::tr("A setting is not valid.");
        break;
    case ErrorCode::NotFound:
        text = ErrorText::tr("The file or folder does not exist.");
        break;
    case ErrorCode::IoError:
        text = ErrorText::tr("Reading or writing failed.");
        break;
    case ErrorCode::Unsupported:
        text = ErrorText::tr("This kind of file is not supported.");
        break;
    case ErrorCode::Corrupt:
        text = ErrorText::tr("The file is damaged or not an image.");
        break;
    case ErrorCode::OutOfMemory:
        text = ErrorText::tr("There is not enough memory.");
        break;
    case ErrorCode::Cancelled:
        text = ErrorText::tr("Cancelled.");
        break;
    case ErrorCode::DeviceError:
        text = ErrorText::tr("The GPU reported an error.");
        break;
    case ErrorCode::TooLarge:
        text = ErrorText::tr("The file is larger than Fisura accepts for its kind, so it was not "
                             "read.");
        break;
    case ErrorCode::NeedsConsent:
        text = ErrorText::tr("This is a TorchScript module: it runs code stored in the file. It "
                             "was not loaded because you did not allow it.");
        break;
    case ErrorCode::Internal:
        text = ErrorText::tr("Internal error (please report it).");
        break;
    }
    if (!s.detail().empty())
        text += QStringLiteral("\n") + QString::fromStdString(s.detail());
    return text;
}

QString formatEta(double seconds)
{
    if (seconds < 0 || !std::isfinite(seconds))
        return {};
    if (seconds < 90)
        return ErrorText::tr("%n s left", nullptr, int(std::lround(seconds)));
    if (seconds < 5400)
        return ErrorText::tr("about %n min left", nullptr, int(std::lround(seconds / 60)));
    return ErrorText::tr("about %n h left", nullptr, int(std::lround(seconds / 3600)));
}

} // namespace fisura::ui
