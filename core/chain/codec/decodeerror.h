#pragma once

#include <QString>
#include <utility>
#include <variant>

namespace switchyard::chain {

// Why some bytes (or text) are not what they claim to be. `message` is the whole sentence a
// person reads ("truncated: signature 2 needs 64 bytes at offset 65, 12 remain"); `offset` is the
// same position for code, counted in bytes of the decoded input (in characters for text codecs).
struct DecodeError
{
    QString message;
    qsizetype offset = 0;
};

// A character as an error message shows it: 'x' when printable ASCII, U+XXXX otherwise.
QString describeCharacter(QChar c);

// Either a decoded value or the reason it could not be decoded. The constructors are implicit
// on purpose: a decoder returns a value or a DecodeError and the caller tests the result.
template <typename T>
class DecodeResult
{
public:
    DecodeResult(T value)
        : m_data(std::in_place_index<0>, std::move(value))
    {}
    DecodeResult(DecodeError error)
        : m_data(std::in_place_index<1>, std::move(error))
    {}

    bool ok() const { return m_data.index() == 0; }
    explicit operator bool() const { return ok(); }

    const T& value() const& { return std::get<0>(m_data); }
    T& value() & { return std::get<0>(m_data); }
    T&& value() && { return std::get<0>(std::move(m_data)); }
    const T* operator->() const { return &std::get<0>(m_data); }
    T* operator->() { return &std::get<0>(m_data); }
    const T& operator*() const { return std::get<0>(m_data); }

    const DecodeError& error() const { return std::get<1>(m_data); }

private:
    std::variant<T, DecodeError> m_data;
};

} // namespace switchyard::chain
