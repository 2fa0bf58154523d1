#include "analyze/pacetext.h"

#include <QLocale>

namespace fisura::ui
{

namespace
{
/// A rate with the digits that matter, in the reader's locale: 1234, 56,7, 0,47.
QString rateText(double megapixelsPerSecond)
{
    const int digits = megapixelsPerSecond >= 100 ? 0 : megapixelsPerSecond >= 10 ? 1 : 2;
    return QLocale().toString(megapixelsPerSecond, 'f', digits);
}

QString codecText(const PaceForecast& f)
{
    return f.inputCompression.empty() ? PaceText::tr("unknown")
                                      : QString::fromStdString(f.inputCompression).toUpper();
}
} // namespace

QString paceForecastValue(const PaceForecast& f)
{
    if (f.measured && f.limit == InferLimit::Input)
        return PaceText::tr("reading the scan");
    return PaceText::tr("the network");
}

QString paceForecastText(const PaceForecast& f)
{
    if (!f.measured) {
        if (f.decodeMegapixelsPerThread > 0)
            return PaceText::tr("Not forecast: the network's speed was not measured.");
        return PaceText::tr("Not forecast: a %1 file is decoded whole before its tiles are read.")
            .arg(codecText(f));
    }
    const QString threads = PaceText::tr("%n reader thread(s)", nullptr, f.readerThreads);
    const QString devices = PaceText::tr("%n device(s)", nullptr, f.devices);
    if (f.limit == InferLimit::Input)
        return PaceText::tr("Reading and decoding the scan (%1) is expected to set the pace: "
                            "%2 MP/s on %3, while the network takes %4 MP/s on %5.")
            .arg(codecText(f), rateText(f.decodeMegapixelsPerSecond), threads,
                 rateText(f.networkMegapixelsPerSecond), devices);
    return PaceText::tr("The network is expected to set the pace: %1 MP/s on %2, while "
                        "decoding the scan (%3) keeps up at %4 MP/s on %5.")
        .arg(rateText(f.networkMegapixelsPerSecond), devices, codecText(f),
             rateText(f.decodeMegapixelsPerSecond), threads);
}

} // namespace fisura::ui
