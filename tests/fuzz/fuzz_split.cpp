// Fuzz target: a saved dataset split (parseSplit, what loadSplit reads) against a small dataset.
#include <string>

#include "data/split_text.h"
#include "fuzz_entry.h"

namespace
{

fisura::Dataset makeDataset()
{
    fisura::Dataset d;
    d.task = fisura::TaskKind::Classify;
    d.root = "/data/cracks";
    d.classes = {"cracked", "uncracked"};
    // The names of the demo segmentation set (as fisura-cli's splits name them) and of a
    // classification set with nested folders.
    const char* names[] = {"images/seg_0000.tif", "images/seg_0001.tif", "images/seg_0002.tif",
                           "images/seg_0003.tif", "images/seg_0004.tif", "images/seg_0005.tif",
                           "cracked/a.png",       "cracked/b.png",       "uncracked/c.jpg",
                           "uncracked/d e.png",   "uncracked/sub/f.tif", "g.png"};
    int i = 0;
    for (const char* n : names) {
        fisura::DatasetItem item;
        item.image = d.root + "/" + n;
        item.label = i++ % 2;
        d.items.push_back(item);
    }
    d.classCounts = {6, 6};
    return d;
}

} // namespace

FISURA_FUZZ_TARGET(split)
{
    static const fisura::Dataset dataset = makeDataset();
    const std::string text(reinterpret_cast<const char*>(data), size);
    (void)fisura::parseSplit(text, dataset, "split.json");
    return 0;
}
