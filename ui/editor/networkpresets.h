#pragma once

#include "config/config.h"

#include <QList>
#include <QString>

namespace switchyard::ui {

// Well-known networks, so an operator never types a genesis hash or chain id by hand.
struct NetworkPreset
{
    QString label; // "Solana devnet"
    NetworkConfig network;
};

// Solana mainnet-beta, devnet, testnet (each with the cluster's public endpoint as its node, so
// it is valid as added); Ethereum mainnet, Sepolia (one node whose URL is the operator's to
// fill in: there is no public endpoint of the chain's own); then custom Solana and EVM entries
// with the identity left for the operator too.
QList<NetworkPreset> networkPresets();

// A name not yet used by `taken` (ignoring case): `base`, else `base-2`, `base-3`...
QString uniqueName(const QString& base, const QStringList& taken);

} // namespace switchyard::ui
