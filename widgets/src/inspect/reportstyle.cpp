#include "inspect/reportstyle.h"

#include <QAbstractTextDocumentLayout>
#include <QFont>
#include <QLocale>
#include <QPageLayout>
#include <QPageSize>
#include <QPdfWriter>
#include <QSaveFile>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextFrame>
#include <QUrl>

#include <algorithm>
#include <memory>

#include "fisura/version.h"

namespace fisura::ui
{

QString esc(const QString& s)
{
    return s.toHtmlEscaped();
}

QString row(const QString& key, const QString& value)
{
    return QStringLiteral("<tr><td class='k'>%1</td><td>%2</td></tr>").arg(esc(key), esc(value));
}

QString num(double v, int decimals)
{
    return QLocale().toString(v, 'f', decimals);
}

namespace
{

// Headers wrap (Spanish ones are longer) so a table never runs past the page; numbers don't.
const char* kStyle = R"(
body { font-family: 'DejaVu Sans', 'Liberation Sans', sans-serif; font-size: 9pt; color: #202020; }
h1 { font-size: 17pt; color: #1f3a5f; margin-bottom: 2px; }
h2 { font-size: 12pt; color: #1f3a5f; margin-top: 14px; margin-bottom: 4px; }
p.sub { color: #606060; margin-top: 0px; }
p.note { color: #7a4b00; font-style: italic; }
p.caption { color: #606060; font-size: 8pt; }
td.k { color: #505050; padding-right: 12px; }
table.grid { border-collapse: collapse; font-size: 8pt; }
table.grid th { background-color: #1f3a5f; color: white; padding: 3px 4px; font-weight: bold; }
table.grid td { padding: 2px 4px; border-bottom: 1px solid #d0d0d0; white-space: nowrap; }
table.c1 td { padding: 1px 4px; }
table.c2 { font-size: 7pt; }
table.c2 td { padding: 0px 3px; }
td.n { text-align: right; }
)";

// A last page used less than this (of its text height) is an orphan worth avoiding.
constexpr double kLeastLastPageUse = 0.2;

// How much of the last page's text height `doc` uses when print() lays it out on `device`
// (as print() does: a clone, 2 cm margins, the device's page); 1 for a single page.
double lastPageUse(const QTextDocument& doc, QPagedPaintDevice* device)
{
    std::unique_ptr<QTextDocument> d(doc.clone());
    d->documentLayout()->setPaintDevice(device);
    const double margin = 2 / 2.54 * device->logicalDpiY();
    QTextFrameFormat fmt = d->rootFrame()->frameFormat();
    fmt.setMargin(margin);
    d->rootFrame()->setFrameFormat(fmt);
    const QSizeF page(device->width(), device->height());
    d->setPageSize(page);
    const int pages = d->pageCount();
    if (pages <= 1)
        return 1.0;
    const QRectF last = d->documentLayout()->blockBoundingRect(d->lastBlock());
    const double top = (pages - 1) * page.height() + margin;
    return std::clamp((last.bottom() - top) / (page.height() - 2 * margin), 0.0, 1.0);
}

} // namespace

QString reportStyle()
{
    return QString::fromLatin1(kStyle);
}

Status writeHtmlPdf(const QString& path, const QString& title,
                    const std::vector<std::pair<QString, QImage>>& images, int layouts,
                    const std::function<QString(int)>& html)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return Status(ErrorCode::IoError,
                      path.toStdString() + ": " + file.errorString().toStdString());
    {
        QPdfWriter pdf(&file);
        pdf.setPageSize(QPageSize(QPageSize::A4));
        // QTextDocument::print() adds 2 cm margins and the page numbers itself.
        pdf.setPageMargins(QMarginsF(0, 0, 0, 0), QPageLayout::Millimeter);
        pdf.setResolution(300);
        pdf.setTitle(title);
        pdf.setCreator(QStringLiteral("Fisura %1").arg(QString::fromStdString(version())));
        QTextDocument doc;
        doc.setDefaultFont(QFont(QStringLiteral("DejaVu Sans"), 9));
        for (const auto& [name, image] : images)
            doc.addResource(QTextDocument::ImageResource, QUrl(name), image);
        // The first layout whose last page holds more than a few lines (else the last one).
        for (int layout = 0; layout < layouts; ++layout) {
            doc.setHtml(html(layout));
            if (lastPageUse(doc, &pdf) >= kLeastLastPageUse)
                break;
        }
        doc.print(&pdf);
    }
    if (!file.commit())
        return Status(ErrorCode::IoError,
                      path.toStdString() + ": " + file.errorString().toStdString());
    return {};
}

} // namespace fisura::ui
