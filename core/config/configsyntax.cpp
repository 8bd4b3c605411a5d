#include "configsyntax.h"

#include "config/jsonsourcemap.h"

#include <algorithm>

namespace switchyard {

namespace {

// Qt reports some errors one character past the token that broke the rule (it has already
// read it); editors should land on that token.
qsizetype errorPosition(const QJsonParseError& error, const QByteArray& text)
{
    const qsizetype offset = std::clamp<qsizetype>(error.offset, 0, text.size());
    switch (error.error) {
    case QJsonParseError::UnterminatedObject:
    case QJsonParseError::MissingNameSeparator:
    case QJsonParseError::UnterminatedArray:
    case QJsonParseError::MissingValueSeparator:
    case QJsonParseError::MissingObject:
    case QJsonParseError::IllegalValue:
        return offset > 0 ? offset - 1 : 0;
    default:
        return offset;
    }
}

char previousNonSpace(const QByteArray& text, qsizetype position)
{
    for (qsizetype i = position - 1; i >= 0; --i) {
        if (!QChar::isSpace(uchar(text.at(i))))
            return text.at(i);
    }
    return '\0';
}

QString syntaxMessage(const QJsonParseError& error, const QByteArray& text, qsizetype position)
{
    const char here = position < text.size() ? text.at(position) : '\0';
    const QString anyValue = QStringLiteral("expected a value (object, array, string, number, "
                                            "true, false or null)");
    switch (error.error) {
    case QJsonParseError::UnterminatedObject: {
        const char before = previousNonSpace(text, position);
        if (here != '"' && (before == '{' || before == ','))
            return QStringLiteral("expected a key in double quotes");
        return QStringLiteral("expected \",\" or \"}\" after an object member");
    }
    case QJsonParseError::MissingNameSeparator:
        return QStringLiteral("expected \":\" after an object key");
    case QJsonParseError::UnterminatedArray:
        return QStringLiteral("expected \",\" or \"]\" after an array element");
    case QJsonParseError::MissingValueSeparator:
        return QStringLiteral("expected \",\" between values");
    case QJsonParseError::IllegalValue:
        return anyValue;
    case QJsonParseError::TerminationByNumber:
        return QStringLiteral("expected more after this number: the file ends too early");
    case QJsonParseError::IllegalNumber: {
        // Qt reports any unknown bare word as a bad number.
        const char before = position > 0 ? text.at(position - 1) : '\0';
        const auto numeric = [](char c) {
            return c == '-' || (c >= '0' && c <= '9');
        };
        if (numeric(here) || numeric(before))
            return QStringLiteral("expected a number");
        return anyValue + QStringLiteral("; strings need double quotes");
    }
    case QJsonParseError::IllegalEscapeSequence:
        return QStringLiteral("expected a valid escape sequence in the string");
    case QJsonParseError::IllegalUTF8String:
        return QStringLiteral("expected UTF-8 text in the string");
    case QJsonParseError::UnterminatedString:
        return QStringLiteral("expected a closing \" (unterminated string)");
    case QJsonParseError::MissingObject:
        return QStringLiteral("expected a \"key\": value after \",\" (no trailing commas in "
                              "JSON)");
    case QJsonParseError::DeepNesting:
        return QStringLiteral("expected less deeply nested values");
    case QJsonParseError::DocumentTooLarge:
        return QStringLiteral("expected a smaller document");
    case QJsonParseError::GarbageAtEnd:
        return QStringLiteral("expected the end of the file after the top-level object");
    case QJsonParseError::NoError:
        break;
    }
    return error.errorString();
}

} // namespace

int lineOf(const QByteArray& text, qsizetype offset)
{
    return int(std::count(text.cbegin(), text.cbegin() + offset, '\n')) + 1;
}

int columnOf(const QByteArray& text, qsizetype offset)
{
    // lastIndexOf(c, -1) would search from the end, not from before the start.
    const qsizetype lineStart = offset > 0 ? text.lastIndexOf('\n', offset - 1) + 1 : 0;
    // Count characters, not bytes: editors show columns in characters.
    return int(QString::fromUtf8(text.mid(lineStart, offset - lineStart)).size()) + 1;
}

ConfigError syntaxError(const QString& sourceName, const QByteArray& text,
                        const QJsonParseError& error)
{
    const qsizetype position = errorPosition(error, text);
    return {sourceName, lineOf(text, position), columnOf(text, position), QString(),
            syntaxMessage(error, text, position)};
}

QList<ConfigError> duplicateKeyErrors(const QString& sourceName, const QByteArray& json,
                                      const JsonSourceMap& sourceMap)
{
    QList<ConfigError> errors;
    for (const JsonSourceMap::DuplicateKey& duplicate : sourceMap.duplicateKeys()) {
        errors.append({sourceName, lineOf(json, duplicate.offset), columnOf(json, duplicate.offset),
                       duplicate.path,
                       QStringLiteral("duplicate key %1 (first given at line %2, column %3); each "
                                      "key may appear once in an object")
                           .arg(quotedForMessage(duplicate.key),
                                QString::number(lineOf(json, duplicate.firstOffset)),
                                QString::number(columnOf(json, duplicate.firstOffset)))});
    }
    return errors;
}

} // namespace switchyard
