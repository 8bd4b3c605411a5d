#include "jsonsourcemap.h"

#include <QRegularExpression>

namespace switchyard {

namespace {

bool isJsonSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

bool isNumberCharacter(char c)
{
    return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
}

} // namespace

bool isLayoutCharacter(QChar c)
{
    const char16_t unit = c.unicode();
    return c.category() == QChar::Other_Control || c.category() == QChar::Separator_Line ||
           c.category() == QChar::Separator_Paragraph || (unit >= 0x202A && unit <= 0x202E) ||
           (unit >= 0x2066 && unit <= 0x2069);
}

namespace {

// The code point that starts at `at`, and how many UTF-16 units it takes: a surrogate without
// its other half is a code point of its own, as it stands.
std::pair<char32_t, qsizetype> codePointAt(const QString& text, qsizetype at)
{
    const QChar first = text.at(at);
    if (first.isHighSurrogate() && at + 1 < text.size() && text.at(at + 1).isLowSurrogate())
        return {QChar::surrogateToUcs4(first, text.at(at + 1)), 2};
    return {first.unicode(), 1};
}

} // namespace

bool isInvisibleCharacter(char32_t codePoint)
{
    switch (codePoint) {
    case 0x034F: // combining grapheme joiner
    case 0x115F: // Hangul choseong filler
    case 0x1160: // Hangul jungseong filler
    case 0x17B4: // Khmer vowel inherent aq
    case 0x17B5: // Khmer vowel inherent aa
    case 0x3164: // Hangul filler
    case 0xFFA0: // halfwidth Hangul filler
        return true;
    default:
        break;
    }
    const QChar::Category category = QChar::category(codePoint);
    return category == QChar::Other_Format || category == QChar::Other_Surrogate;
}

std::optional<InvisibleCharacter> firstInvisibleCharacter(const QString& text)
{
    qsizetype position = 1;
    for (qsizetype at = 0; at < text.size(); ++position) {
        const auto [codePoint, units] = codePointAt(text, at);
        if (isInvisibleCharacter(codePoint))
            return InvisibleCharacter{codePoint, position};
        at += units;
    }
    return std::nullopt;
}

QString withoutInvisibleCharacters(const QString& text)
{
    QString visible;
    visible.reserve(text.size());
    for (qsizetype at = 0; at < text.size();) {
        const auto [codePoint, units] = codePointAt(text, at);
        if (!isInvisibleCharacter(codePoint))
            visible += QStringView(text).mid(at, units);
        at += units;
    }
    return visible;
}

QString escapedForMessage(const QString& text)
{
    QString escaped;
    escaped.reserve(text.size());
    for (qsizetype at = 0; at < text.size();) {
        const QChar c = text.at(at);
        const auto [codePoint, units] = codePointAt(text, at);
        switch (c.unicode()) {
        case u'\\':
            escaped += QStringLiteral("\\\\");
            break;
        case u'"':
            escaped += QStringLiteral("\\\"");
            break;
        case u'\n':
            escaped += QStringLiteral("\\n");
            break;
        case u'\r':
            escaped += QStringLiteral("\\r");
            break;
        case u'\t':
            escaped += QStringLiteral("\\t");
            break;
        default:
            if (isLayoutCharacter(c) || isInvisibleCharacter(codePoint)) {
                for (qsizetype unit = at; unit < at + units; ++unit)
                    escaped += QStringLiteral("\\u%1").arg(text.at(unit).unicode(), 4, 16,
                                                           QLatin1Char('0'));
            } else {
                escaped += QStringView(text).mid(at, units);
            }
        }
        at += units;
    }
    return escaped;
}

QString quotedForMessage(const QString& text)
{
    return u'"' + escapedForMessage(text) + u'"';
}

QString jsonChildPath(const QString& path, const QString& key)
{
    static const QRegularExpression plain(QStringLiteral("^[A-Za-z_][A-Za-z0-9_-]*$"));
    if (!plain.match(key).hasMatch())
        return path + QStringLiteral("[\"") + escapedForMessage(key) + QStringLiteral("\"]");
    return path.isEmpty() ? key : path + u'.' + key;
}

QString jsonItemPath(const QString& path, qsizetype index)
{
    return path + u'[' + QString::number(index) + u']';
}

JsonSourceMap::JsonSourceMap(const QByteArray& json)
    : m_text(json)
{
    value(QString());
}

std::optional<qsizetype> JsonSourceMap::valueOffset(const QString& path) const
{
    const auto it = m_offsets.constFind(path);
    if (it == m_offsets.cend())
        return std::nullopt;
    return *it;
}

QByteArray JsonSourceMap::numberText(const QString& path) const
{
    return m_numbers.value(path);
}

void JsonSourceMap::skipSpace()
{
    while (m_position < m_text.size() && isJsonSpace(m_text.at(m_position)))
        ++m_position;
}

void JsonSourceMap::value(const QString& path)
{
    skipSpace();
    if (m_position >= m_text.size())
        return;
    // With keys given twice the last use wins, as it does in QJsonObject.
    m_offsets.insert(path, m_position);
    const char first = m_text.at(m_position);
    if (first == '{') {
        object(path);
    } else if (first == '[') {
        array(path);
    } else if (first == '"') {
        string();
    } else {
        const qsizetype start = m_position;
        while (m_position < m_text.size() &&
               (isNumberCharacter(m_text.at(m_position)) ||
                (m_text.at(m_position) >= 'a' && m_text.at(m_position) <= 'z')))
            ++m_position;
        if (first == '-' || (first >= '0' && first <= '9'))
            m_numbers.insert(path, m_text.mid(start, m_position - start));
    }
}

void JsonSourceMap::object(const QString& path)
{
    ++m_position; // {
    QHash<QString, qsizetype> seen;
    skipSpace();
    while (m_position < m_text.size() && m_text.at(m_position) != '}') {
        const qsizetype keyOffset = m_position;
        const QString key = string();
        const QString keyPath = jsonChildPath(path, key);
        if (const auto first = seen.constFind(key); first != seen.cend())
            m_duplicates.append({key, keyPath, keyOffset, *first});
        else
            seen.insert(key, keyOffset);
        skipSpace();
        ++m_position; // :
        value(keyPath);
        skipSpace();
        if (m_position < m_text.size() && m_text.at(m_position) == ',')
            ++m_position;
        skipSpace();
    }
    ++m_position; // }
}

void JsonSourceMap::array(const QString& path)
{
    ++m_position; // [
    skipSpace();
    for (qsizetype index = 0; m_position < m_text.size() && m_text.at(m_position) != ']'; ++index) {
        value(jsonItemPath(path, index));
        skipSpace();
        if (m_position < m_text.size() && m_text.at(m_position) == ',')
            ++m_position;
        skipSpace();
    }
    ++m_position; // ]
}

QString JsonSourceMap::string()
{
    ++m_position; // "
    QString decoded;
    qsizetype runStart = m_position;
    const auto flush = [&] {
        decoded += QString::fromUtf8(m_text.constData() + runStart, m_position - runStart);
    };
    while (m_position < m_text.size()) {
        const char c = m_text.at(m_position);
        if (c == '"') {
            flush();
            ++m_position;
            return decoded;
        }
        if (c != '\\') {
            ++m_position;
            continue;
        }
        flush();
        const char escape = m_position + 1 < m_text.size() ? m_text.at(m_position + 1) : '\0';
        m_position += 2;
        switch (escape) {
        case 'b':
            decoded += u'\b';
            break;
        case 'f':
            decoded += u'\f';
            break;
        case 'n':
            decoded += u'\n';
            break;
        case 'r':
            decoded += u'\r';
            break;
        case 't':
            decoded += u'\t';
            break;
        case 'u': {
            // A surrogate pair arrives as two escapes, each one UTF-16 unit: QString holds
            // UTF-16, so appending the units one by one rebuilds the character.
            const ushort unit = m_text.mid(m_position, 4).toUShort(nullptr, 16);
            decoded += QChar(unit);
            m_position += 4;
            break;
        }
        default: // " \ /
            decoded += QLatin1Char(escape);
        }
        runStart = m_position;
    }
    flush();
    return decoded;
}

} // namespace switchyard
