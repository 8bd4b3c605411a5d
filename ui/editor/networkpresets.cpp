#include "networkpresets.h"

namespace switchyard::ui {

namespace {

NodeConfig presetNode(const QString& name, const QString& url)
{
    NodeConfig node;
    node.name = name;
    node.urlTemplate = url;
    node.roles = allNodeRoles;
    return node;
}

NetworkConfig solana(const QString& name, const QString& genesisHash, const QString& explorer,
                     const QString& publicUrl = {})
{
    NetworkConfig network;
    network.name = name;
    network.family = ChainFamily::Solana;
    network.genesisHash = genesisHash;
    network.commitment = QStringLiteral("confirmed");
    const LagThresholds lags = defaultLagThresholds(ChainFamily::Solana);
    network.warnLag = lags.warnLag;
    network.maxLag = lags.maxLag;
    network.explorer = explorer;
    network.nodes = {publicUrl.isEmpty() ? presetNode(QStringLiteral("node-1"), {})
                                         : presetNode(QStringLiteral("public"), publicUrl)};
    return network;
}

NetworkConfig evm(const QString& name, quint64 chainId, const QString& explorer)
{
    NetworkConfig network;
    network.name = name;
    network.family = ChainFamily::Evm;
    network.chainId = chainId;
    const LagThresholds lags = defaultLagThresholds(ChainFamily::Evm);
    network.warnLag = lags.warnLag;
    network.maxLag = lags.maxLag;
    network.explorer = explorer;
    network.nodes = {presetNode(QStringLiteral("node-1"), {})};
    return network;
}

} // namespace

QList<NetworkPreset> networkPresets()
{
    // Genesis hashes as the clusters report them through getGenesisHash; chain ids as
    // eth_chainId reports them (EIP-155).
    return {
        {QStringLiteral("Solana mainnet-beta"),
         solana(QStringLiteral("solana-mainnet"),
                QStringLiteral("5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d"),
                QStringLiteral("https://explorer.solana.com/tx/{id}"),
                QStringLiteral("https://api.mainnet-beta.solana.com"))},
        {QStringLiteral("Solana devnet"),
         solana(QStringLiteral("solana-devnet"),
                QStringLiteral("EtWTRABZaYq6iMfeYKouRu166VU2xqa1wcaWoxPkrZBG"),
                QStringLiteral("https://explorer.solana.com/tx/{id}?cluster=devnet"),
                QStringLiteral("https://api.devnet.solana.com"))},
        {QStringLiteral("Solana testnet"),
         solana(QStringLiteral("solana-testnet"),
                QStringLiteral("4uhcVJyU9pJkvQyS88uRDiswHXSCkY3zQawwpjk2NsNY"),
                QStringLiteral("https://explorer.solana.com/tx/{id}?cluster=testnet"),
                QStringLiteral("https://api.testnet.solana.com"))},
        {QStringLiteral("Ethereum mainnet"),
         evm(QStringLiteral("ethereum"), 1, QStringLiteral("https://etherscan.io/tx/{id}"))},
        {QStringLiteral("Ethereum Sepolia"),
         evm(QStringLiteral("sepolia"), 11155111,
             QStringLiteral("https://sepolia.etherscan.io/tx/{id}"))},
        {QStringLiteral("Other Solana cluster"),
         solana(QStringLiteral("solana-custom"), QString(), QString())},
        {QStringLiteral("Other EVM chain"), evm(QStringLiteral("evm-custom"), 0, QString())},
    };
}

QString uniqueName(const QString& base, const QStringList& taken)
{
    const auto used = [&](const QString& name) {
        return taken.contains(name, Qt::CaseInsensitive);
    };
    if (!used(base))
        return base;
    for (int suffix = 2;; ++suffix) {
        const QString candidate = QStringLiteral("%1-%2").arg(base).arg(suffix);
        if (!used(candidate))
            return candidate;
    }
}

} // namespace switchyard::ui
