// "Import GeoJSON…" and "Export GeoJSON…" of the Label section: the label of the image being
// labelled from and to QuPath GeoJSON (fisura/labelgeojson.h). Import replaces the whole label
// with the file's polygons and lines as one undoable edit (its pixels count as drawn by the
// user); export writes the label as it is now, saved or not, as outlines, centre lines with their
// width, or both. Reading, tracing and writing run off the GUI thread; the file dialogs open in
// the image's folder.
#pragma once

#include <QPointer>
#include <QWidget>

#include <functional>

#include "fisura/image.h"
#include "fisura/status.h"

class QAction;
class QComboBox;
class QLabel;

namespace fisura::ui
{

class JobRunner;
class LabelSession;

class LabelGeoJsonBox : public QWidget
{
    Q_OBJECT
public:
    /// Asks for a file to read (`save` false) or write, the dialog opening at `start`; an empty
    /// answer cancels. Replaceable for tests.
    using FileChooser = std::function<QString(bool save, const QString& start)>;

    explicit LabelGeoJsonBox(QWidget* parent = nullptr);

    void setSession(LabelSession* session);
    void setFileChooser(FileChooser chooser) { chooser_ = std::move(chooser); }
    QAction* importAction() const { return import_; }
    QAction* exportAction() const { return export_; }
    /// What export writes: outlines (0), centre lines with width (1) or both (2).
    QComboBox* shapesBox() const { return shapes_; }

    /// Starts replacing the label with the GeoJSON at `path`: imported() or failed() follows.
    /// False when it cannot start (no label, busy, or a label too large: failed() says so).
    bool importFile(const QString& path);
    /// Starts writing the label to `path`: exported() or failed() follows. False as above.
    bool exportFile(const QString& path);
    bool isRunning() const;
    void retranslateUi();

Q_SIGNALS:
    void statusMessage(const QString& text, int timeoutMs);
    /// A translated sentence naming the files, then the reason.
    void failed(const QString& message);
    void imported(const QString& path);
    void exported(const QString& path);

private:
    QString choose(bool save) const;
    void updateState();
    void finishImport(LabelSession* target, const QString& path, Result<Image> mask);
    void reportImportFailure(const QString& path, const QString& image, const Status& s);

    QPointer<LabelSession> session_;
    FileChooser chooser_;
    JobRunner* runner_;
    QAction* import_;
    QAction* export_;
    QLabel* shapesLabel_;
    QComboBox* shapes_;
};

} // namespace fisura::ui
