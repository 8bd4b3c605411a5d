#pragma once

#include <QString>
#include <optional>

namespace switchyard::sim {

// Solana's commitment levels as the simulator models them: processed is the node's head,
// confirmed one slot below it, finalized 32 below (never below slot 0).
enum class Commitment
{
    Processed,
    Confirmed,
    Finalized
};

QString commitmentName(Commitment commitment);
std::optional<Commitment> commitmentFromName(const QString& name);
// How many slots below the node's head a commitment level sits.
qint64 commitmentDepth(Commitment commitment);

} // namespace switchyard::sim
