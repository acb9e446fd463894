// Registries by name for the pluggable parts (placement policies, queues, contention models).
// Each implementation registers itself with one line beside its code:
//   MOSIM_REGISTER(PlacementPolicy, "k8s-bin-packing", "fill the fullest servers first", make);
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace mosim {

template <class Interface, class... Args>
class Registry {
 public:
  using Factory = std::function<std::unique_ptr<Interface>(Args...)>;
  struct Entry {
    std::string description;
    Factory make;
  };

  static Registry& instance() {
    static Registry registry;
    return registry;
  }

  bool add(const std::string& name, std::string description, Factory make) {
    entries_[name] = Entry{std::move(description), std::move(make)};
    return true;
  }

  bool contains(const std::string& name) const { return entries_.count(name) != 0; }

  /// Builds the named implementation; throws std::invalid_argument listing the known names.
  std::unique_ptr<Interface> create(const std::string& name, Args... args) const {
    auto it = entries_.find(name);
    if (it == entries_.end()) {
      std::string known;
      for (const auto& [key, entry] : entries_) known += (known.empty() ? "" : ", ") + key;
      throw std::invalid_argument("unknown name '" + name + "' (known: " + known + ")");
    }
    return it->second.make(args...);
  }

  /// Name and description of everything registered, sorted by name.
  std::vector<std::pair<std::string, std::string>> list() const {
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& [name, entry] : entries_) out.emplace_back(name, entry.description);
    return out;
  }

 private:
  std::map<std::string, Entry> entries_;
};

}  // namespace mosim

#define MOSIM_REGISTRY_CONCAT2(a, b) a##b
#define MOSIM_REGISTRY_CONCAT(a, b) MOSIM_REGISTRY_CONCAT2(a, b)
/// Registers a factory under a name in the registry of `RegistryType`, at static-initialisation time.
#define MOSIM_REGISTER(RegistryType, name, description, factory)                      \
  namespace {                                                                          \
  [[maybe_unused]] const bool MOSIM_REGISTRY_CONCAT(mosim_registered_, __LINE__) =     \
      RegistryType::instance().add(name, description, factory);                        \
  }
