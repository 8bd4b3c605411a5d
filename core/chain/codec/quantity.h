#pragma once

#include <QJsonValue>
#include <QString>
#include <optional>

// The numbers nodes answer with, read one way everywhere: a node's answer is checked before any
// of it is believed, so each reader says why a value is not a number of its kind.
namespace switchyard::chain {

// An Ethereum JSON-RPC quantity: a string "0x" followed by 1 to 16 hex digits ("0x0", "0x1a").
// Anything else ("0x", "1a", a number, "-0x1", more than 64 bits) is nullopt with `why` set.
std::optional<quint64> parseHexQuantity(const QJsonValue& value, QString* why = nullptr);

// parseHexQuantity for a count that must fit a qint64 (block numbers, heights).
std::optional<qint64> parseHexCount(const QJsonValue& value, QString* why = nullptr);

// A JSON number that is a whole count, 0 to 2^53 (Solana's slots and heights; beyond 2^53 a
// JSON number is no longer read exactly).
std::optional<qint64> parseJsonCount(const QJsonValue& value, QString* why = nullptr);

// A value as it appeared in the answer, short enough for a message: `"0x"`, `-5`, `null`.
QString quotedJson(const QJsonValue& value);

} // namespace switchyard::chain
