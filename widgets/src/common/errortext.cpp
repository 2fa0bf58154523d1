#include "common/errortext.h"

#include <QLocale>

#include <cmath>

#include "fisura/change.h"

namespace fisura::ui
{

namespace
{
bool detailIs(const Status& s, const char* id)
{
    return s.code() == ErrorCode::IoError && s.detail().rfind(id, 0) == 0;
}

/// A TIFF claiming more pixels than ImageLimits allow (core/include/fisura/tiledimage.h).
bool tooManyPixels(const Status& s)
{
    return s.code() == ErrorCode::TooLarge && s.detail().rfind("too_many_pixels:", 0) == 0;
}
} // namespace

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
        // Write failures the core recognised carry a stable id (core/src/util/io_error.h).
        if (detailIs(s, "disk_full:"))
            text = ErrorText::tr("The disk is full.");
        else if (detailIs(s, "read_only:"))
            text = ErrorText::tr("Fisura may not write to this folder (it is read-only or "
                                 "belongs to someone else).");
        else
            text = ErrorText::tr("Reading or writing failed.");
        break;
    case ErrorCode::Unsupported:
        text = ErrorText::tr("This kind of file is not supported.");
        break;
    case ErrorCode::Corrupt:
        text = ErrorText::tr("The file is damaged or is not what its name says.");
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
        if (tooManyPixels(s))
            text = ErrorText::tr("The image claims more pixels than Fisura opens (a small file "
                                 "claiming a huge image may be a decompression bomb), so it was "
                                 "not read.");
        else
            text = ErrorText::tr("The file is larger than Fisura accepts for its kind, so it was "
                                 "not read.");
        break;
    case ErrorCode::NeedsConsent:
        text = ErrorText::tr("This is a TorchScript module: it runs code stored in the file. It "
                             "was not loaded because you did not allow it.");
        break;
    case ErrorCode::MapSizeMismatch:
        text = ErrorText::tr("The crack map is not the size of its scan.");
        break;
    case ErrorCode::AlignNotSameSurface:
        text = ErrorText::tr("The scans could not be aligned: they do not seem to show the same "
                             "surface.");
        break;
    case ErrorCode::AlignTooFewWindows:
        text = ErrorText::tr("The scans match roughly, but too few details agree at full "
                             "resolution to align them precisely.");
        break;
    case ErrorCode::AlignNoOverlap:
        text = ErrorText::tr("The later scan hardly overlaps this one: there is too little in "
                             "common to compare.");
        break;
    case ErrorCode::AlignDegenerateModel:
        text = ErrorText::tr("The alignment found an implausible scale, shear or perspective: "
                             "the scans are probably not of the same surface.");
        break;
    case ErrorCode::AlignScanTooSmall:
        text = ErrorText::tr("A scan is too small to align.");
        break;
    case ErrorCode::Internal:
        text = ErrorText::tr("Internal error (please report it).");
        break;
    }
    const QString advice = errorAdvice(s);
    if (!advice.isEmpty())
        text += QLatin1Char(' ') + advice;
    if (!s.detail().empty())
        text += QStringLiteral("\n") + QString::fromStdString(s.detail());
    return text;
}

QString errorAdvice(const Status& s)
{
    switch (s.code()) {
    case ErrorCode::Ok:
    case ErrorCode::Cancelled:
        return {};
    case ErrorCode::InvalidArgument:
        return ErrorText::tr("Check the value or the file you chose, then try again.");
    case ErrorCode::NotFound:
        return ErrorText::tr("It may have been moved, renamed or be on a drive that is not "
                             "connected: choose it again.");
    case ErrorCode::IoError:
        if (detailIs(s, "disk_full:"))
            return ErrorText::tr("Free some space or choose a folder on another disk, then try "
                                 "again. What was saved before is unchanged.");
        if (detailIs(s, "read_only:"))
            return ErrorText::tr("Choose another folder, then try again. What was saved before "
                                 "is unchanged.");
        return ErrorText::tr("Check that the file is a file (not a folder), that you may read "
                             "it and write its folder, then try again.");
    case ErrorCode::Unsupported:
        return ErrorText::tr("Convert it to a kind Fisura reads (TIFF, PNG or JPEG), or open it "
                             "with a newer version of Fisura.");
    case ErrorCode::Corrupt:
        return ErrorText::tr("Fisura did not change it: open another copy (the original, or "
                             "export it again).");
    case ErrorCode::OutOfMemory:
        return ErrorText::tr("Close other programs, or use a smaller image, region or batch, "
                             "then try again.");
    case ErrorCode::DeviceError:
        return ErrorText::tr("Try again; if it keeps failing, run on the processor instead.");
    case ErrorCode::TooLarge:
        if (tooManyPixels(s))
            return ErrorText::tr("Check that it is the scan you meant; open it only if you trust "
                                 "it (command line: --max-pixels, --max-pixels-per-byte).");
        return ErrorText::tr("Check that it is the model you meant; open a larger file only if "
                             "you trust it (command line: --max-model-size).");
    case ErrorCode::NeedsConsent:
        return ErrorText::tr("Load it only if you trust where it comes from (command line: "
                             "--allow-torchscript).");
    case ErrorCode::MapSizeMismatch:
        return ErrorText::tr("Choose the crack map made from that scan.");
    case ErrorCode::AlignNotSameSurface:
        return ErrorText::tr("Choose a later scan of this surface.");
    case ErrorCode::AlignTooFewWindows:
        return ErrorText::tr("Check that the later scan is sharp and shows this surface, then "
                             "try again.");
    case ErrorCode::AlignNoOverlap:
        return ErrorText::tr("Choose a later scan that covers more of this surface.");
    case ErrorCode::AlignDegenerateModel:
        return ErrorText::tr("Choose a later scan of this surface, taken from a similar "
                             "distance and angle.");
    case ErrorCode::AlignScanTooSmall:
        return ErrorText::tr("Choose scans of at least %1 × %1 pixels.")
            .arg(QLocale().toString(kMinAlignSidePx));
    case ErrorCode::Internal:
        return ErrorText::tr("Please report it with the text below.");
    }
    return {};
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
