// The CTAs or warps of one launch, by launch index (CTA index, global warp id). Objects are
// created in index order and destroyed in any order; storage follows the live range (from the
// oldest live object to the newest), so a grid of a million CTAs costs what its resident CTAs
// cost (issue 45). An object's address does not change while it lives: SMs keep pointers to
// their warps. Iteration visits the live objects in index order.
#pragma once

#include <cstddef>
#include <iterator>
#include <memory>
#include <utility>
#include <vector>

#include "common/check.h"

namespace simtsync::func {

template <typename T>
class LaunchTable {
 public:
  // Forgets every object; the launch has `count` indices, none created yet.
  void reset(std::size_t count) {
    count_ = count;
    base_ = head_ = live_ = 0;
    items_.clear();
  }
  // Indices of the whole launch (created or not).
  std::size_t size() const { return count_; }
  // The index the next create() gets; every index below it was created.
  std::size_t created() const { return base_ + items_.size(); }
  std::size_t live_count() const { return live_; }
  // Slots held in storage (live objects and the destroyed ones not dropped yet).
  std::size_t stored() const { return items_.size(); }

  // Creates the object of index created().
  template <typename... Args>
  T& create(Args&&... args) {
    SIMTSYNC_CHECK(created() < count_);
    items_.push_back(std::make_unique<T>(std::forward<Args>(args)...));
    ++live_;
    return *items_.back();
  }
  void destroy(std::size_t i) {
    auto& p = items_[i - base_];
    if (!p) return;
    p.reset();
    --live_;
    while (head_ < items_.size() && !items_[head_]) ++head_;
    // Drop the dead front once it is most of the storage (amortised O(1) per object).
    if (head_ >= 64 && head_ * 2 >= items_.size()) {
      items_.erase(items_.begin(), items_.begin() + static_cast<std::ptrdiff_t>(head_));
      base_ += head_;
      head_ = 0;
    }
  }
  // The live object of index i, or nullptr (not created yet, or destroyed).
  T* find(std::size_t i) {
    if (i < base_ + head_ || i >= created()) return nullptr;
    return items_[i - base_].get();
  }
  const T* find(std::size_t i) const { return const_cast<LaunchTable*>(this)->find(i); }
  // The object of a live index.
  T& operator[](std::size_t i) { return *items_[i - base_]; }
  const T& operator[](std::size_t i) const { return *items_[i - base_]; }

  template <typename V, typename It>
  class Iter {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = V;
    using difference_type = std::ptrdiff_t;
    using pointer = V*;
    using reference = V&;
    Iter(It at, It end) : at_(at), end_(end) { skip(); }
    V& operator*() const { return **at_; }
    V* operator->() const { return at_->get(); }
    Iter& operator++() {
      ++at_;
      skip();
      return *this;
    }
    bool operator==(const Iter& o) const { return at_ == o.at_; }

   private:
    void skip() {
      while (at_ != end_ && !*at_) ++at_;
    }
    It at_, end_;
  };
  using Items = std::vector<std::unique_ptr<T>>;
  using iterator = Iter<T, typename Items::iterator>;
  using const_iterator = Iter<const T, typename Items::const_iterator>;
  iterator begin() { return {items_.begin() + static_cast<std::ptrdiff_t>(head_), items_.end()}; }
  iterator end() { return {items_.end(), items_.end()}; }
  const_iterator begin() const {
    return {items_.cbegin() + static_cast<std::ptrdiff_t>(head_), items_.cend()};
  }
  const_iterator end() const { return {items_.cend(), items_.cend()}; }

 private:
  std::size_t count_ = 0;
  std::size_t base_ = 0;  // index of items_[0]
  std::size_t head_ = 0;  // items_[0, head_) are destroyed
  std::size_t live_ = 0;
  Items items_;
};

}  // namespace simtsync::func
