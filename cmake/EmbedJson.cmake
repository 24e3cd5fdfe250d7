# Compiles a JSON file's bytes into a C++ source, so that the program serves the very file the
# repository holds (docs/spec.schema.json as the MCP tool's spec schema) and no copy of it is
# kept by hand. Run at build time by the custom command in CMakeLists.txt:
#   cmake -DINPUT=FILE.json -DOUTPUT=FILE.cpp -DNAMESPACE=cp::mcp -DFUNCTION=name -P EmbedJson.cmake
# The source defines `std::string_view NAMESPACE::FUNCTION()`, the file's bytes as they are (no
# newline conversion, no terminating NUL counted). The bytes are written as an array of
# unsigned char rather than a string literal, so no escaping is needed and MSVC's limit on a
# literal's length does not apply. A file that is not one JSON value fails the build here.
cmake_minimum_required(VERSION 3.20)

foreach(_var INPUT OUTPUT NAMESPACE FUNCTION)
  if(NOT DEFINED ${_var})
    message(FATAL_ERROR "EmbedJson.cmake: -D${_var}=... is missing")
  endif()
endforeach()

file(READ "${INPUT}" _text)
string(JSON _type ERROR_VARIABLE _error TYPE "${_text}")
if(_error)
  message(FATAL_ERROR "${INPUT} is not valid JSON: ${_error}")
endif()

file(READ "${INPUT}" _hex HEX)
string(LENGTH "${_hex}" _length)
if(_length EQUAL 0)
  message(FATAL_ERROR "${INPUT} is empty")
endif()
math(EXPR _size "${_length} / 2")

# 16 bytes a line.
set(_lines "")
set(_at 0)
while(_at LESS _length)
  string(SUBSTRING "${_hex}" ${_at} 32 _chunk)
  string(REGEX REPLACE "([0-9a-fA-F][0-9a-fA-F])" "0x\\1," _chunk "${_chunk}")
  string(APPEND _lines "    ${_chunk}\n")
  math(EXPR _at "${_at} + 32")
endwhile()

get_filename_component(_name "${INPUT}" NAME)
file(WRITE "${OUTPUT}" "// Generated from ${_name} by cmake/EmbedJson.cmake at build time; edit ${_name}.
#include <string_view>

namespace ${NAMESPACE} {
namespace {
const unsigned char kBytes[${_size}] = {
${_lines}};
}  // namespace

std::string_view ${FUNCTION}();  // as the header that uses it declares it
std::string_view ${FUNCTION}() {
    return {reinterpret_cast<const char*>(kBytes), sizeof kBytes};
}

}  // namespace ${NAMESPACE}
")
