#include "common/optiontexts.h"

#include <QDoubleSpinBox>
#include <QSpinBox>
#include <QVariant>

namespace fisura::ui
{

namespace
{

struct OptionText {
    OptionSet set;
    const char* key;
    const char* text; ///< English source, translated in the context "OptionTexts"
};

// One entry per option a widget shows. The command line's help is core's English
// (fisura/options.h); these say the same for the GUI, in the user's language.
const OptionText kTexts[] = {
    {OptionSet::Train, "epochs",
     QT_TRANSLATE_NOOP("OptionTexts", "Passes over all training images. Training may stop "
                                      "earlier when the validation score stops improving.")},
    {OptionSet::Train, "batch_size",
     QT_TRANSLATE_NOOP("OptionTexts", "Images per training step. Automatic measures what fits "
                                      "on the GPU; with several GPUs it is per GPU.")},
    {OptionSet::Train, "precision",
     QT_TRANSLATE_NOOP("OptionTexts", "Number format of the arithmetic. Automatic picks bf16 or "
                                      "fp16 on GPUs that compute them fast, fp32 otherwise.")},
    {OptionSet::Train, "prefer_cpu",
     QT_TRANSLATE_NOOP("OptionTexts", "Train on the processor even when a GPU is present")},
    {OptionSet::Train, "learning_rate",
     QT_TRANSLATE_NOOP("OptionTexts", "Largest step of the optimiser. Too high and training "
                                      "diverges; too low and it learns slowly.")},
    {OptionSet::Train, "schedule",
     QT_TRANSLATE_NOOP("OptionTexts", "How the learning rate changes during the job: one cycle "
                                      "rises and then falls, cosine only falls.")},
    {OptionSet::Train, "val_fraction",
     QT_TRANSLATE_NOOP("OptionTexts", "Share of the images kept aside to measure the model after "
                                      "each epoch.")},
    {OptionSet::Train, "patience",
     QT_TRANSLATE_NOOP("OptionTexts", "Epochs without improvement before training stops early.")},
    {OptionSet::Train, "augment",
     QT_TRANSLATE_NOOP("OptionTexts", "Flips, rotations, brightness and contrast")},
    {OptionSet::Train, "loader_threads",
     QT_TRANSLATE_NOOP("OptionTexts", "Processor threads decoding the training images.")},
    {OptionSet::Train, "intra_op_threads",
     QT_TRANSLATE_NOOP("OptionTexts",
                       "Processor threads for the network. Automatic uses the cores the loader "
                       "threads leave; the setting applies to the whole program while a job "
                       "runs.")},
    {OptionSet::Train, "seed",
     QT_TRANSLATE_NOOP("OptionTexts", "The same seed, data and options give the same split and "
                                      "the same starting weights.")},
    {OptionSet::Train, "model.input_size",
     QT_TRANSLATE_NOOP("OptionTexts", "Edge of the square crops the network learns from. A "
                                      "U-Net needs a multiple of 2 to the power of its depth.")},
    {OptionSet::Train, "model.width",
     QT_TRANSLATE_NOOP("OptionTexts", "Channels of the first level; each level doubles them. "
                                      "Wider networks learn more but are slower.")},
    {OptionSet::Train, "model.depth",
     QT_TRANSLATE_NOOP("OptionTexts", "Levels of the network, each halving the image: deeper "
                                      "networks see more context around each pixel.")},
    {OptionSet::Train, "model.patch_features",
     QT_TRANSLATE_NOOP("OptionTexts", "What describes each position: the features of a small "
                                      "random network, or the gray pixels of a patch around it.")},
    {OptionSet::Train, "model.feature_dim",
     QT_TRANSLATE_NOOP("OptionTexts", "Feature channels kept for the statistics: more describe "
                                      "the surface better, and memory grows with their square.")},
    {OptionSet::Train, "model.pooled_positions",
     QT_TRANSLATE_NOOP("OptionTexts", "For images that are aligned (the same object at the same "
                                      "place). Surfaces usually are not: leave it off.")},
    {OptionSet::Infer, "tile_size",
     QT_TRANSLATE_NOOP("OptionTexts", "Edge of the square tiles the scan is cut into. Larger "
                                      "tiles waste less on overlap but need more memory.")},
    {OptionSet::Infer, "overlap",
     QT_TRANSLATE_NOOP("OptionTexts", "Pixels shared by neighbouring tiles; their predictions "
                                      "are blended so no seams appear.")},
    {OptionSet::Infer, "batch_size",
     QT_TRANSLATE_NOOP("OptionTexts",
                       "Tiles computed at once. Automatic measures what fits on a GPU and keeps "
                       "batches small on the processor so cancelling is prompt.")},
    {OptionSet::Infer, "precision",
     QT_TRANSLATE_NOOP("OptionTexts", "Number format of the arithmetic. Automatic picks bf16 or "
                                      "fp16 on GPUs that compute them fast, fp32 otherwise.")},
    {OptionSet::Infer, "window",
     QT_TRANSLATE_NOOP("OptionTexts", "How the predictions of overlapping tiles are weighted "
                                      "where they are blended.")},
    {OptionSet::Measure, "pixel_size_mm",
     QT_TRANSLATE_NOOP("OptionTexts",
                       "Millimetres per scan pixel; prefilled from the scan's resolution tags. "
                       "Without it lengths stay in pixels and there are no classes.")},
    {OptionSet::Measure, "threshold",
     QT_TRANSLATE_NOOP("OptionTexts", "The crack probability from which a pixel is crack")},
    {OptionSet::Measure, "classes.upper_limits_mm",
     QT_TRANSLATE_NOOP("OptionTexts", "Your own class limits: a crack belongs to the first "
                                      "class whose limit its width is below.")},
    {OptionSet::Compare, "align.model",
     QT_TRANSLATE_NOOP("OptionTexts",
                       "How the later scan may differ from the earlier one: similarity (shift, "
                       "turn, scale), affine (also shear) or homography (also perspective). "
                       "Automatic picks the simplest one the matches allow.")},
    {OptionSet::Compare, "align.field",
     QT_TRANSLATE_NOOP("OptionTexts", "Corrects the model smoothly where the surface was not "
                                      "flat; used only when it lowers the residual clearly.")},
    {OptionSet::Compare, "align.georeference",
     QT_TRANSLATE_NOOP("OptionTexts",
                       "When both scans are georeferenced in one coordinate system, look for "
                       "matches only where the georeferences say the scans overlap (the whole "
                       "scans when nothing matches there).")},
    {OptionSet::Infer, "intra_op_threads",
     QT_TRANSLATE_NOOP("OptionTexts",
                       "Processor threads for the network. Automatic uses the cores the image "
                       "readers leave; the setting applies to the whole program while a job "
                       "runs.")},
};

const char* kSetProperty = "optionSet";
const char* kKeyProperty = "optionKey";

const OptionDef& mark(QWidget* w, OptionSet set, const char* key)
{
    w->setProperty(kSetProperty, int(set));
    w->setProperty(kKeyProperty, QString::fromLatin1(key));
    w->setToolTip(optionHelp(set, key));
    return optionDef(set, key);
}

} // namespace

QString optionHelp(OptionSet set, const std::string& key)
{
    for (const OptionText& t : kTexts)
        if (t.set == set && key == t.key)
            return OptionTexts::tr(t.text);
    return {};
}

QString optionUnitSuffix(const std::string& unit)
{
    if (unit == "px")
        return OptionTexts::tr(" px");
    if (unit == "mm")
        return OptionTexts::tr(" mm");
    return {}; // counts (epochs, threads, images) are named by the field's label
}

void applyOption(QSpinBox* box, OptionSet set, const char* key)
{
    const OptionDef& d = mark(box, set, key);
    box->setRange(int(d.min), int(d.max));
    box->setValue(int(d.defaultNumber));
    box->setSuffix(optionUnitSuffix(d.unit));
}

void applyOption(QDoubleSpinBox* box, OptionSet set, const char* key)
{
    const OptionDef& d = mark(box, set, key);
    box->setRange(d.min, d.max);
    box->setValue(d.defaultNumber);
    box->setSuffix(optionUnitSuffix(d.unit));
}

void applyOptionItem(QDoubleSpinBox* box, OptionSet set, const char* key, int index)
{
    const OptionDef& d = mark(box, set, key);
    box->setProperty("optionIndex", index);
    box->setRange(d.min, d.max);
    if (index >= 0 && size_t(index) < d.defaultNumbers.size())
        box->setValue(d.defaultNumbers[size_t(index)]);
    box->setSuffix(optionUnitSuffix(d.unit));
}

void applyOptionText(QWidget* widget, OptionSet set, const char* key)
{
    mark(widget, set, key);
}

void retranslateOptions(QWidget* root)
{
    for (QWidget* w : root->findChildren<QWidget*>()) {
        const QVariant key = w->property(kKeyProperty);
        if (!key.isValid())
            continue;
        const OptionSet set = OptionSet(w->property(kSetProperty).toInt());
        const std::string k = key.toString().toStdString();
        w->setToolTip(optionHelp(set, k));
        const QString suffix = optionUnitSuffix(optionDef(set, k).unit);
        if (auto* s = qobject_cast<QSpinBox*>(w))
            s->setSuffix(suffix);
        else if (auto* d = qobject_cast<QDoubleSpinBox*>(w))
            d->setSuffix(suffix);
    }
}

} // namespace fisura::ui
