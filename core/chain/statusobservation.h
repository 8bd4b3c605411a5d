#pragma once

#include <QJsonValue>
#include <QString>
#include <optional>

namespace switchyard::chain {

// What one node's checked answer says about one transaction id, in either family.
struct StatusObservation
{
    enum class Level
    {
        NotFound,  // not found in this node's view (never "failed")
        Processed, // Solana: in a block not yet confirmed; EVM: in the pool (by hash)
        Confirmed,
        Finalized,
    };
    Level level = Level::NotFound;
    bool failed = false;            // landed with an error (Solana err, EVM status 0x0)
    QString error;                  // the error as the node gave it, as text
    QJsonValue errorValue;          // Solana: the err object itself
    std::optional<qint64> landedAt; // slot/block it landed in
};

// "processed", "confirmed", "finalized"; empty for NotFound.
QString levelWord(StatusObservation::Level level);

} // namespace switchyard::chain
