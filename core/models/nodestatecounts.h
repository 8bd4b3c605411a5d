#pragma once

#include "pool/nodestate.h"

#include <QString>
#include <QStringList>
#include <array>

namespace switchyard {

class PoolManager;

// The order summaries name node states in: what needs attention first.
inline constexpr std::array<NodeState, 9> nodeStatesWorstFirst{
    NodeState::Diverged,  NodeState::WrongNetwork, NodeState::Unhealthy,
    NodeState::Probation, NodeState::Quarantined,  NodeState::Lagging,
    NodeState::Disabled,  NodeState::NotProbed,    NodeState::Healthy};

// How many nodes are in each state.
class NodeStateCounts
{
public:
    void add(NodeState state) { ++m_counts[std::size_t(state)]; }
    int count(NodeState state) const { return m_counts[std::size_t(state)]; }
    int total() const;
    // "1 Unhealthy · 2 Lagging · 4 Healthy": the states present, worst first; empty without
    // nodes.
    QString describe() const;

private:
    std::array<int, nodeStatesWorstFirst.size()> m_counts{};
};

// The node states of the network the selector shows, and of every network it hides: the
// count of one network never passes for the count of all of them.
struct SelectedNodeCounts
{
    QString network;             // the one selected; empty: every network is shown
    NodeStateCounts shown;       // the selected network's nodes, or every node
    NodeStateCounts hidden;      // the other networks' nodes
    QStringList hiddenByNetwork; // "demo-solana: 1 Unhealthy · 3 Healthy", per hidden network

    // "Other networks: 1 Unhealthy · 3 Healthy"; empty when no network is hidden.
    QString hiddenText() const;
};

SelectedNodeCounts countNodes(const PoolManager& manager, const QString& network = {});

} // namespace switchyard
