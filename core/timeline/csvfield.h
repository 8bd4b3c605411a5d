#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QStringView>

// RFC 4180 fields, with the OWASP guard against CSV injection for text cells.
namespace switchyard::csv {

// True when a spreadsheet would run the cell as a formula: it starts with = + - @ TAB or CR.
bool startsLikeFormula(QByteArrayView utf8);

// A text cell: a leading formula character gets a `'` in front (the cell then reads as text in
// Excel, LibreOffice and Google Sheets), and the field is quoted when it holds `,` `"` CR or
// LF, with quotes doubled.
void appendText(QByteArray& out, QByteArrayView utf8);
void appendText(QByteArray& out, QStringView text);

// A number cell: written as it is, so a spreadsheet still reads -5 as a number.
void appendNumber(QByteArray& out, qint64 value);

inline constexpr char recordEnd[] = "\r\n";

} // namespace switchyard::csv
