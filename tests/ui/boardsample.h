#pragma once

// Realistic cards for every column of the pending-transaction board, for the screenshot: ids
// shaped like real signatures and hashes, intents, sends, and Solana transactions with various
// blocks left before their blockhash expires.

#include "chain/codec/base58.h"
#include "tracking/trackedtransaction.h"

#include <QList>
#include <QRandomGenerator>

namespace switchyard::testing {

struct BoardSample
{
    QString solanaNetwork;
    QString evmNetwork;
    qint64 nowMs = 0;
    qint64 solanaHeight = 0; // lastValidBlockHeight = this + the blocks left wanted
    QRandomGenerator random{20261130};

    QString signature()
    {
        QByteArray bytes(64, Qt::Uninitialized);
        for (char& byte : bytes)
            byte = char(random.bounded(256));
        return chain::base58Encode(bytes);
    }
    QString hash()
    {
        QString out = QStringLiteral("0x");
        for (int i = 0; i < 64; ++i)
            out += QLatin1Char("0123456789abcdef"[random.bounded(16)]);
        return out;
    }

    tracking::TrackedTransaction solana(tracking::TxState state, const QString& intent,
                                        qint64 ageMs, std::optional<qint64> blocksLeft)
    {
        tracking::TrackedTransaction r;
        r.id = signature();
        r.network = solanaNetwork;
        r.family = ChainFamily::Solana;
        r.intentId = intent;
        r.wire = QByteArray(random.bounded(220, 900), 'x');
        r.recentBlockhash = chain::base58Encode(QByteArray(32, char(random.bounded(256))));
        if (blocksLeft)
            r.lastValidBlockHeight = solanaHeight + *blocksLeft;
        r.state = state;
        r.createdMs = nowMs - ageMs;
        r.stateSinceMs = nowMs - ageMs / 3;
        return r;
    }

    tracking::TrackedTransaction evm(tracking::TxState state, const QString& intent, qint64 ageMs,
                                     quint64 nonce)
    {
        tracking::TrackedTransaction r;
        r.id = hash();
        r.network = evmNetwork;
        r.family = ChainFamily::Evm;
        r.intentId = intent;
        r.wire = QByteArray(random.bounded(110, 400), 'x');
        r.sender = QStringLiteral("0x52908400098527886E0F7030069857D2E4169EE7");
        r.nonce = nonce;
        r.state = state;
        r.createdMs = nowMs - ageMs;
        r.stateSinceMs = nowMs - ageMs / 3;
        return r;
    }

    tracking::TrackedTransaction sent(tracking::TrackedTransaction r, int attempts,
                                      const QString& node)
    {
        r.attempts = attempts;
        r.lastNode = node;
        r.firstSentMs = r.createdMs + 800;
        if (tracking::isLanded(r.state) || r.state == tracking::TxState::ExecutionFailed) {
            r.confirmedMs = r.stateSinceMs;
            // A landing a few hundred slots (Solana) or a few blocks (EVM) before now.
            r.confirmedHeight = r.family == ChainFamily::Solana
                                    ? solanaHeight + 4000 - (nowMs - r.stateSinceMs) / 400
                                    : 7'214'530 - (nowMs - r.stateSinceMs) / 12'000;
            r.confirmedBy = node;
        }
        if (r.state == tracking::TxState::Finalized) {
            r.finalizedMs = r.stateSinceMs;
            r.finalizedBy = node;
        }
        return r;
    }

    QList<tracking::TrackedTransaction> records()
    {
        using tracking::TxState;
        constexpr qint64 min = 60'000;
        QList<tracking::TrackedTransaction> out;
        // Pending: the worrying ones, oldest first on the board.
        out << sent(
            solana(TxState::TransportUnknown, QStringLiteral("payout-2026-11-30-0412"), 7 * min, 9),
            2, QStringLiteral("sol-flapping"));
        out << sent(solana(TxState::Submitted, QStringLiteral("withdrawal-88123"), 5 * min, 41), 1,
                    QStringLiteral("sol-steady"));
        out << solana(TxState::Imported, QStringLiteral("treasury-sweep-17"), 4 * min,
                      std::nullopt);
        out << sent(evm(TxState::TransportUnknown, QStringLiteral("refund-5521"), 3 * min, 412), 1,
                    QStringLiteral("evm-drops-sends"));
        out << sent(solana(TxState::Submitted, QStringLiteral("mint-batch-3"), 2 * min, 87), 1,
                    QStringLiteral("sol-steady"));
        auto watched = solana(TxState::Imported, {}, 90'000, 118);
        watched.wire.reset();
        out << watched;
        out << sent(evm(TxState::Submitted, QStringLiteral("payout-2026-11-30-0419"), 40'000, 413),
                    1, QStringLiteral("evm-primary"));
        out << sent(solana(TxState::Submitted, QStringLiteral("withdrawal-88140"), 12'000, 139), 1,
                    QStringLiteral("sol-rate-limited"));
        // Landed, not final.
        out << sent(solana(TxState::Confirmed, QStringLiteral("withdrawal-88131"), 3 * min, 60), 1,
                    QStringLiteral("sol-steady"));
        out << sent(evm(TxState::Confirmed, QStringLiteral("payout-2026-11-30-0417"), 6 * min, 411),
                    1, QStringLiteral("evm-primary"));
        out << sent(solana(TxState::Confirmed, QStringLiteral("mint-batch-2"), 70'000, 100), 2,
                    QStringLiteral("sol-lagging"));
        // Final.
        for (int i = 0; i < 7; ++i) {
            if (i % 3 == 2)
                out << sent(evm(TxState::Finalized, QStringLiteral("payout-2026-11-30-04%1").arg(i),
                                (20 + 9 * i) * min, 400 + quint64(i)),
                            1, QStringLiteral("evm-primary"));
            else
                out << sent(solana(TxState::Finalized,
                                   QStringLiteral("withdrawal-880%1").arg(70 + i),
                                   (15 + 8 * i) * min, 0),
                            1, QStringLiteral("sol-steady"));
        }
        // Failed: only these three states.
        auto failed =
            sent(solana(TxState::ExecutionFailed, QStringLiteral("swap-7731"), 11 * min, 0), 1,
                 QStringLiteral("sol-steady"));
        failed.error = QStringLiteral("InstructionError(2, Custom(6001)): slippage exceeded");
        out << failed;
        auto expired =
            sent(solana(TxState::Expired, QStringLiteral("withdrawal-88009"), 26 * min, 0), 3,
                 QStringLiteral("sol-flapping"));
        expired.error = QStringLiteral("past lastValidBlockHeight and not found with "
                                       "searchTransactionHistory: the sender must sign a new one");
        out << expired;
        auto superseded =
            sent(evm(TxState::Superseded, QStringLiteral("refund-5498"), 48 * min, 405), 1,
                 QStringLiteral("evm-behind"));
        superseded.error = QStringLiteral("nonce 405 was used by another transaction");
        out << superseded;
        return out;
    }
};

} // namespace switchyard::testing
