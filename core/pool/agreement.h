#pragma once

#include "chain/blockidentity.h"

#include <QList>
#include <QString>

namespace switchyard {

// One node's answer to an agreement check: the block it serves at the checked height.
struct AgreementVote
{
    int node = 0; // index in its pool
    QString name;
    chain::BlockIdentity block; // Block or Skipped; NotAvailable answers do not vote
};

// What the answers of one agreement check say about the nodes that gave them.
struct AgreementVerdict
{
    enum class Kind
    {
        TooFew,        // fewer than two answers: nothing to compare
        Agreed,        // every answer is the same block
        Majority,      // three or more answers, a strict majority on one block, `diverged` not
        NoMajority,    // three or more answers and no block has a strict majority: nobody is judged
        PairDisagrees, // exactly two answers that differ: neither can be told right
    };
    Kind kind = Kind::TooFew;
    chain::BlockIdentity majority; // Agreed, Majority
    QList<AgreementVote> agreeing; // Agreed, Majority
    QList<AgreementVote> diverged; // Majority; PairDisagrees: both
};

AgreementVerdict judgeAgreement(const QList<AgreementVote>& votes);

// The evidence for a Diverged node: "block 20000097: serves 0xab…, the majority 0xcd… (b, c)".
QString divergenceEvidence(qint64 height, const AgreementVote& diverged,
                           const AgreementVerdict& verdict);
// "disagrees with b at block 20000097 (0xab… against 0xcd…)".
QString disagreementText(qint64 height, const AgreementVote& own, const AgreementVote& other);

} // namespace switchyard
