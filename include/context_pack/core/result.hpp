// Result<T>: a value or an Error message, for the layers below the CLI.
// Low layers return it; the top turns an Error into one line on stderr and exit status 2.
// Per-anchor outcomes (GONE, UNRESOLVED, ...) are report data, never Errors.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace cp {

struct Error {
    std::string message;  // one line: what was wrong and how to mend it
    // Set when what failed is reading one of the repository's objects, with why: missing from
    // its store (in a partial clone, not fetched yet) or damaged there. A caller that can do
    // without that object makes it one part's outcome (an anchor UNRESOLVED, a file left out
    // of a caller scan) and goes on; any other error stops the run.
    enum class Object { None, Missing, Damaged };
    Object object = Object::None;
    bool unreadable_object() const { return object != Object::None; }
};

template <class T>
class [[nodiscard]] Result {
  public:
    Result(T value) : v_(std::move(value)) {}
    Result(Error error) : v_(std::move(error)) {}

    bool ok() const { return v_.index() == 0; }
    explicit operator bool() const { return ok(); }
    T& value() & { return std::get<0>(v_); }
    const T& value() const& { return std::get<0>(v_); }
    T&& value() && { return std::get<0>(std::move(v_)); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    T& operator*() & { return value(); }
    const Error& error() const { return std::get<1>(v_); }

  private:
    std::variant<T, Error> v_;
};

struct Unit {};

}  // namespace cp
