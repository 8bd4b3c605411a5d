#include "disablequestion.h"

#include "pool/networkpool.h"

namespace switchyard {

std::optional<DisableQuestion> disableQuestion(const NetworkPool& pool, int nodeIndex)
{
    const QList<int> senders = pool.eligibleNodes(NodeRole::Send);
    if (senders.isEmpty() || senders.constFirst() != nodeIndex)
        return std::nullopt;
    const QString node = pool.node(nodeIndex).config.name;
    const QString network = pool.config().name;
    DisableQuestion question;
    question.title = QStringLiteral("Disable %1?").arg(node);
    question.confirm = QStringLiteral("Disable %1").arg(node);
    if (senders.size() == 1) {
        question.text = QStringLiteral("%1 is the only node of %2 that can send now. Disabled, "
                                       "no node is left to send: a rebroadcast will find no node "
                                       "to ask until it is enabled again or another recovers.")
                            .arg(node, network);
    } else {
        question.text = QStringLiteral("%1 is the first choice for sends on %2. Disabled, sends "
                                       "go to %3 instead, and fallback is active until it is "
                                       "enabled again.")
                            .arg(node, network, pool.node(senders.at(1)).config.name);
    }
    return question;
}

} // namespace switchyard
