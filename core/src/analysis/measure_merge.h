// Joins the per-tile statistics into whole cracks: union-find over the labels on tile borders
// (tiles arrive in raster order), and closes every crack, branch and junction cluster as soon as
// the tile row below can no longer touch it, so memory follows the open objects only.
#pragma once

#include <vector>

#include "analysis/measure_tile.h"

namespace fisura::analysis
{

/// One kind of object (cracks, branches or junction clusters) under union-find.
class Layer
{
public:
    int add(Accum&& a);
    int find(int id);
    void unite(int a, int b);
    int size() const { return int(parent_.size()); }
    bool isRoot(int id) const { return parent_[size_t(id)] == id; }
    Accum& accum(int id) { return acc_[size_t(id)]; }
    /// Keeps the roots in `keep` (old ids), renumbered 0..n-1; returns old root -> new id
    /// (-1 for dropped ids). Call find() on old ids before, never after.
    std::vector<int> compact(const std::vector<char>& keep);

private:
    std::vector<int> parent_;
    std::vector<Accum> acc_;
};

/// A complete crack and its branches, in px (ids, classes and mm are set later).
struct FinishedCrack {
    Crack crack;
    std::vector<BranchRef> branches; ///< into CrackMerger::branches()
    std::vector<uint32_t> hist;
};

class CrackMerger
{
public:
    /// `classLimitsPx`: the width-class limits in px (empty without a pixel size), where the
    /// branches' centre lines are cut into segments.
    /// `branchMemoryBytes`: of the closed branches' records kept in memory (BranchList).
    CrackMerger(int mapWidth, int minAreaPx, std::vector<double> classLimitsPx = {},
                size_t branchMemoryBytes = BranchList::kDefaultMemoryBytes);
    /// Tiles of one row left to right; rows top to bottom.
    void addTile(TileResult&& tile);
    /// After the last tile of a row: closes what the next row cannot reach (all when `last`).
    /// Fails only if the branch list's temporary file cannot be written.
    Status endRow(bool last);
    std::vector<FinishedCrack>& finished() { return finished_; }
    /// The closed branches' records, in the order they closed.
    const BranchList& branches() const { return closed_; }

private:
    struct Line {
        std::vector<uint8_t> state;
        std::vector<int> crack, branch, junction; // global ids, -1 = none
        void reset(size_t n);
    };
    void joinTop(const TileResult& t, const std::vector<int>& lc, const std::vector<int>& lb,
                 const std::vector<int>& lj);
    void joinLeft(const TileResult& t, const std::vector<int>& lc, const std::vector<int>& lb,
                  const std::vector<int>& lj);
    void joinPair(uint8_t s, int c, int b, int j, uint8_t os, int oc, int ob, int oj, bool diagonal,
                  bool cornersFree);
    void finishCrack(Accum& a);
    void setCentreLine(CrackBranch& b, CentreLine&& c);

    int width_;
    int minArea_;
    std::vector<double> classLimitsPx_;
    Layer cracks_, branches_, junctions_;
    Line above_, below_; // the row above the current tile row; the current row's last row
    Line right_;         // the right column of the previous tile in this row
    int rightY0_ = -1;
    std::vector<FinishedCrack> finished_;
    BranchList closed_;
};

} // namespace fisura::analysis
