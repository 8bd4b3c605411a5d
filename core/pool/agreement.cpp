#include "agreement.h"

#include <QHash>

namespace switchyard {

namespace {

QString shown(const chain::BlockIdentity& block)
{
    return block.kind == chain::BlockIdentity::Kind::Skipped ? QStringLiteral("a skipped slot")
                                                             : block.hash;
}

} // namespace

AgreementVerdict judgeAgreement(const QList<AgreementVote>& votes)
{
    AgreementVerdict verdict;
    if (votes.size() < 2)
        return verdict;
    QHash<QString, int> counts;
    for (const AgreementVote& vote : votes)
        ++counts[vote.block.comparable()];
    QString leader;
    int most = 0;
    for (auto it = counts.cbegin(); it != counts.cend(); ++it) {
        if (it.value() > most) {
            most = it.value();
            leader = it.key();
        }
    }
    if (most == votes.size()) {
        verdict.kind = AgreementVerdict::Kind::Agreed;
        verdict.majority = votes.first().block;
        verdict.agreeing = votes;
        return verdict;
    }
    if (votes.size() == 2) {
        verdict.kind = AgreementVerdict::Kind::PairDisagrees;
        verdict.diverged = votes;
        return verdict;
    }
    if (2 * most <= votes.size()) {
        verdict.kind = AgreementVerdict::Kind::NoMajority;
        return verdict;
    }
    verdict.kind = AgreementVerdict::Kind::Majority;
    for (const AgreementVote& vote : votes) {
        if (vote.block.comparable() == leader) {
            verdict.majority = vote.block;
            verdict.agreeing.append(vote);
        } else {
            verdict.diverged.append(vote);
        }
    }
    return verdict;
}

QString divergenceEvidence(qint64 height, const AgreementVote& diverged,
                           const AgreementVerdict& verdict)
{
    QStringList agreeing;
    for (const AgreementVote& vote : verdict.agreeing)
        agreeing.append(vote.name);
    // Votes arrive in answer order; the evidence must read the same whoever answered first.
    agreeing.sort();
    return QStringLiteral("block %1: serves %2, the majority %3 (%4 of %5 nodes: %6)")
        .arg(height)
        .arg(shown(diverged.block), shown(verdict.majority))
        .arg(verdict.agreeing.size())
        .arg(verdict.agreeing.size() + verdict.diverged.size())
        .arg(agreeing.join(QStringLiteral(", ")));
}

QString disagreementText(qint64 height, const AgreementVote& own, const AgreementVote& other)
{
    return QStringLiteral("disagrees with %1 at block %2 (%3 against %4)")
        .arg(other.name)
        .arg(height)
        .arg(shown(own.block), shown(other.block));
}

} // namespace switchyard
