#pragma once

#include "config/configerror.h"

#include <QByteArray>
#include <QJsonParseError>
#include <QList>
#include <QString>

namespace switchyard {

class JsonSourceMap;

// Where byte `offset` of `text` is, as editors show it: line and column from 1, the column
// counted in characters.
int lineOf(const QByteArray& text, qsizetype offset);
int columnOf(const QByteArray& text, qsizetype offset);

// A JSON syntax error of `text` at the line and column of the token that broke the rule, saying
// what was expected there ("expected \":\" after an object key").
ConfigError syntaxError(const QString& sourceName, const QByteArray& text,
                        const QJsonParseError& error);

// Keys given twice in one object (QJsonDocument keeps the last without a word), each at its line
// and column, naming where the key was first given.
QList<ConfigError> duplicateKeyErrors(const QString& sourceName, const QByteArray& json,
                                      const JsonSourceMap& sourceMap);

} // namespace switchyard
