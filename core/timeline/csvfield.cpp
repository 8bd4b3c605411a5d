#include "csvfield.h"

#include <QString>

namespace switchyard::csv {

bool startsLikeFormula(QByteArrayView utf8)
{
    if (utf8.isEmpty())
        return false;
    switch (utf8.front()) {
    case '=':
    case '+':
    case '-':
    case '@':
    case '\t':
    case '\r':
        return true;
    default:
        return false;
    }
}

void appendText(QByteArray& out, QByteArrayView utf8)
{
    const bool formula = startsLikeFormula(utf8);
    bool quote = false;
    for (const char c : utf8) {
        if (c == ',' || c == '"' || c == '\r' || c == '\n') {
            quote = true;
            break;
        }
    }
    if (!quote) {
        if (formula)
            out += '\'';
        out += utf8;
        return;
    }
    out += '"';
    if (formula)
        out += '\'';
    qsizetype start = 0;
    for (qsizetype i = 0; i < utf8.size(); ++i) {
        if (utf8[i] == '"') {
            out += utf8.sliced(start, i + 1 - start);
            out += '"';
            start = i + 1;
        }
    }
    out += utf8.sliced(start);
    out += '"';
}

void appendText(QByteArray& out, QStringView text)
{
    appendText(out, QByteArrayView(text.toUtf8()));
}

void appendNumber(QByteArray& out, qint64 value)
{
    out += QByteArray::number(value);
}

} // namespace switchyard::csv
