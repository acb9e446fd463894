// A thin RAII layer over the HDF5 C API (Debian's libhdf5 1.10): handles that close themselves,
// and error codes turned into exceptions in one place (check), with HDF5's own description of
// what went wrong. Only what the sweep files need: groups, 1-D and 2-D datasets of numbers,
// variable-length UTF-8 strings, and scalar or string-list attributes. Datasets are chunked and
// compressed (shuffle + deflate). Not thread-safe (nor is the serial libhdf5): one thread only.
#pragma once

#include <hdf5.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace mosim::h5 {

/// An HDF5 call failed; the message names the call and gives HDF5's innermost error description.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Throws Error for a negative id or status (HDF5's failure value); returns the value otherwise.
hid_t check(hid_t id, const char* what);

/// An owned HDF5 identifier, closed with the function that fits its kind.
class Handle {
 public:
  using Closer = herr_t (*)(hid_t);
  Handle() = default;
  Handle(hid_t id, Closer closer, const char* what) : id_(check(id, what)), close_(closer) {}
  ~Handle() { reset(); }
  Handle(Handle&& other) noexcept : id_(other.id_), close_(other.close_) { other.id_ = -1; }
  Handle& operator=(Handle&& other) noexcept;
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;

  hid_t get() const { return id_; }
  /// Closes now, reporting a failure (closing a file flushes it) instead of swallowing it.
  void close();

 private:
  void reset() noexcept;
  hid_t id_ = -1;
  Closer close_ = nullptr;
};

/// Creates (truncating) a file. Files use the 1.8 format and later, so that creation order of
/// attributes is tracked and files stay readable by h5py and h5dump everywhere.
Handle createFile(const std::string& path);
/// Opens a file read-only; Error when it is missing or not HDF5.
Handle openFile(const std::string& path);

Handle createGroup(hid_t parent, const std::string& name);
Handle openGroup(hid_t parent, const std::string& name);
/// True when `name` is a link in `parent` (a direct child, no path).
bool exists(hid_t parent, const std::string& name);

// ---- Datasets ----------------------------------------------------------------------------------
// Numbers are stored in little-endian standard types of the C++ type's width and read back into
// the same C++ type; supported: double, std::int32_t, std::int64_t, std::uint8_t, std::uint32_t,
// std::uint64_t.

template <class T>
void writeVector(hid_t parent, const std::string& name, const std::vector<T>& values);
template <class T>
std::vector<T> readVector(hid_t parent, const std::string& name);

/// A row-major rows x columns matrix of uint32 (columns >= 1).
void writeMatrix(hid_t parent, const std::string& name, const std::vector<std::uint32_t>& values,
                 std::size_t rows, std::size_t columns);
/// The values, row-major; `columns` receives the second dimension.
std::vector<std::uint32_t> readMatrix(hid_t parent, const std::string& name, std::size_t& columns);

void writeStrings(hid_t parent, const std::string& name, const std::vector<std::string>& values);
std::vector<std::string> readStrings(hid_t parent, const std::string& name);

// ---- Attributes (on a file, group or dataset) -------------------------------------------------

void writeAttribute(hid_t object, const std::string& name, const std::string& value);
void writeAttribute(hid_t object, const std::string& name, std::int64_t value);
void writeAttribute(hid_t object, const std::string& name, const std::vector<std::string>& values);
std::string readStringAttribute(hid_t object, const std::string& name);
std::int64_t readIntAttribute(hid_t object, const std::string& name);
std::vector<std::string> readStringListAttribute(hid_t object, const std::string& name);
bool hasAttribute(hid_t object, const std::string& name);

}  // namespace mosim::h5
