// "Import GeoJSON…" and "Export GeoJSON…" of the Label section: the label of the image being
// labelled from and to QuPath GeoJSON (fisura/labelgeojson.h). Import replaces the whole label
// with the file's polygons and lines as one undoable edit (its pixels count as drawn by the
// user); export writes the label as it is now, saved or not, as outlines, centre lines with their
// width, or both. The file dialogs open in the image's folder.
#pragma once

#include <QPointer>
#include <QWidget>

#include <functional>

class QAction;
class QComboBox;
class QLabel;

namespace fisura::ui
{

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

    /// Replaces the label with the GeoJSON at `path`; false (failed() says why) on a bad file.
    bool importFile(const QString& path);
    /// Writes the label to `path`; false (failed() says why) when it cannot.
    bool exportFile(const QString& path);
    void retranslateUi();

Q_SIGNALS:
    void statusMessage(const QString& text, int timeoutMs);
    /// A translated sentence naming the files, then the reason.
    void failed(const QString& message);

private:
    QString choose(bool save) const;
    void updateState();

    QPointer<LabelSession> session_;
    FileChooser chooser_;
    QAction* import_;
    QAction* export_;
    QLabel* shapesLabel_;
    QComboBox* shapes_;
};

} // namespace fisura::ui
