#pragma once

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QString>
#include <optional>

namespace switchyard {

// "networks[0].nodes[1]" + "name" -> "networks[0].nodes[1].name"; a key that is not a plain
// word is written ["like this"], with control characters escaped as \n or \u0000 so that a
// message naming it is never cut short or split.
QString jsonChildPath(const QString& path, const QString& key);
QString jsonItemPath(const QString& path, qsizetype index);
// Characters that change how a line reads rather than what it says: control characters (line
// breaks, tab, NUL), line and paragraph separators, bidirectional overrides and isolates.
bool isLayoutCharacter(QChar c);
// Code points that show as nothing: format characters (ZWSP U+200B, RLM U+200F, ALM U+061C, BOM
// U+FEFF, SHY U+00AD, bidirectional controls, tags), the combining grapheme joiner, the Hangul
// fillers, and half of a surrogate pair standing alone. Names differing only in them look alike.
bool isInvisibleCharacter(char32_t codePoint);
// Where `text` has its first invisible character: the code point and its position in code
// points from 1; nullopt when it has none.
struct InvisibleCharacter
{
    char32_t codePoint;
    qsizetype position;
};
std::optional<InvisibleCharacter> firstInvisibleCharacter(const QString& text);
// The text as it reads: without its invisible characters.
QString withoutInvisibleCharacters(const QString& text);
// The text with backslash, double quote, layout and invisible characters written as JSON
// escapes.
QString escapedForMessage(const QString& text);
// The same, in double quotes: how a message quotes a name or a value.
QString quotedForMessage(const QString& text);

// Where each value of a JSON text is, by the JSON path a config error names it with, and what
// QJsonDocument does not keep: the literal text of numbers (it turns them into doubles, which
// change integers beyond 2^53) and keys given twice in one object (it keeps the last silently).
class JsonSourceMap
{
public:
    struct DuplicateKey
    {
        QString key;
        QString path;     // of the key's second (or later) use
        qsizetype offset; // of that use's key, in bytes
        qsizetype firstOffset;
    };

    // `json` must be a text QJsonDocument parsed without error; it must outlive the map.
    explicit JsonSourceMap(const QByteArray& json);

    std::optional<qsizetype> valueOffset(const QString& path) const;
    // The number as written ("9007199254740993", "1e17"); empty when the value is no number.
    QByteArray numberText(const QString& path) const;
    const QList<DuplicateKey>& duplicateKeys() const { return m_duplicates; }

private:
    void skipSpace();
    void value(const QString& path);
    void object(const QString& path);
    void array(const QString& path);
    QString string();

    const QByteArray& m_text;
    qsizetype m_position = 0;
    QHash<QString, qsizetype> m_offsets;
    QHash<QString, QByteArray> m_numbers;
    QList<DuplicateKey> m_duplicates;
};

} // namespace switchyard
