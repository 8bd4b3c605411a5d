#include "demotransactions.h"

#include "chain/codec/base64.h"
#include "chain/codec/hex.h"
#include "chain/evm/evmtransaction.h"
#include "chain/solana/solanatransaction.h"
#include "sim/demosigner.h"
#include "sim/evmledger.h"
#include "sim/simulatedcluster.h"
#include "sim/solanaledger.h"
#include "tracking/transactionimport.h"
#include "tracking/transactiontracker.h"
#include "util/clock.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>

namespace switchyard::sim {

namespace {

// The app's keys: one per part of the script, so one's nonces never hold up another's.
constexpr int kSolanaPayer = 1;
constexpr int kSolanaWatched = 2;
constexpr int kEvmPayer = 10;
constexpr int kEvmReverting = 11;
constexpr int kEvmGapped = 12;
constexpr int kEvmReplacing = 13;
constexpr int kEvmNeverSent = 14;

constexpr qint64 kBlocksLeftNormally = 110; // a blockhash fetched a few seconds ago
constexpr qint64 kBlocksLeftExpiring = 25;  // one fetched about a minute ago

} // namespace

DemoTransactions::DemoTransactions(SimulatedCluster* solana, SimulatedCluster* evm,
                                   QList<NetworkConfig> networks,
                                   tracking::TransactionTracker* tracker, int stepMs,
                                   QObject* parent)
    : QObject(parent)
    , m_solana(solana)
    , m_evm(evm)
    , m_networks(std::move(networks))
    , m_tracker(tracker)
    , m_keySet(int(QRandomGenerator::global()->bounded(1, 600)))
{
    m_timer.setInterval(qMax(10, stepMs));
    connect(&m_timer, &QTimer::timeout, this, &DemoTransactions::runStep);
}

DemoTransactions::~DemoTransactions() = default;

QByteArray DemoTransactions::key(int role) const
{
    return demoKey(m_keySet * 100 + role);
}

void DemoTransactions::start()
{
    if (m_timer.isActive())
        return;
    m_timer.start();
    runStep();
}

std::optional<tracking::TrackedTransaction> DemoTransactions::imported(const QJsonObject& line)
{
    const tracking::ImportResult result = tracking::importTransactions(
        QString::fromUtf8(QJsonDocument(line).toJson(QJsonDocument::Compact)), m_networks, {},
        Clock::system()->utcNow().toMSecsSinceEpoch());
    if (!result.ok() || result.transactions.isEmpty()) {
        qWarning("demo: the app's transaction was refused: %s",
                 qPrintable(result.ok() ? QStringLiteral("nothing read")
                                        : result.errors.constFirst().text()));
        return std::nullopt;
    }
    return result.transactions.constFirst().record;
}

std::optional<tracking::TrackedTransaction>
DemoTransactions::solanaTransfer(const QString& intent, qint64 blocksLeft, bool lost)
{
    const qint64 lastValid = m_solana->headBlockHeight() + blocksLeft;
    const qint64 height = lastValid - SimulatedCluster::kBlockhashValidityBlocks;
    const QByteArray wire =
        signSolanaTransfer(key(kSolanaPayer), m_solana->blockhashAtHeight(height), m_lamports++);
    const auto decoded = chain::solana::decodeTransaction(wire);
    if (!decoded)
        return std::nullopt;
    if (lost)
        m_solana->solanaLedger()->setScriptedOutcome(decoded->id(), ScriptedOutcome::NeverLands);
    return imported({{QStringLiteral("network"), m_solana->name()},
                     {QStringLiteral("intentId"), intent},
                     {QStringLiteral("wireBase64"), chain::base64Encode(chain::asSpan(wire))},
                     {QStringLiteral("lastValidBlockHeight"), lastValid}});
}

std::optional<tracking::TrackedTransaction> DemoTransactions::solanaWatchOnly(const QString& intent)
{
    // Signed by the app, which never hands over the bytes: Switchyard can only watch the id.
    const qint64 height = m_solana->headBlockHeight() - 40;
    const QByteArray wire =
        signSolanaTransfer(key(kSolanaWatched), m_solana->blockhashAtHeight(height), m_lamports++);
    const auto decoded = chain::solana::decodeTransaction(wire);
    if (!decoded)
        return std::nullopt;
    return imported({{QStringLiteral("network"), m_solana->name()},
                     {QStringLiteral("intentId"), intent},
                     {QStringLiteral("signature"), decoded->id()}});
}

std::optional<tracking::TrackedTransaction>
DemoTransactions::evmTransfer(const QString& intent, int keyRole, quint64 nonce, quint64 value,
                              bool lost, bool reverts)
{
    const QByteArray raw = signEip1559Transfer(key(keyRole), m_evm->chainId(), nonce, value);
    const auto decoded = chain::evm::decodeTransaction(raw);
    if (!decoded)
        return std::nullopt;
    if (lost)
        m_evm->evmLedger()->setScriptedOutcome(decoded->id(), ScriptedOutcome::NeverLands);
    if (reverts)
        m_evm->evmLedger()->setScriptedOutcome(decoded->id(), ScriptedOutcome::FailsOnExecution);
    return imported({{QStringLiteral("network"), m_evm->name()},
                     {QStringLiteral("intentId"), intent},
                     {QStringLiteral("raw"), chain::hexEncode(raw)}});
}

void DemoTransactions::add(Action& action, std::optional<tracking::TrackedTransaction> record,
                           bool send)
{
    if (!record)
        return;
    action.track.append(*record);
    if (send)
        action.send.append(record->id);
}

void DemoTransactions::runStep()
{
    const int step = m_step++;
    Action action;
    action.send = m_retry;
    m_retry.clear();
    const auto intent = [this](const char* what) {
        return QStringLiteral("demo-%1-%2")
            .arg(QLatin1String(what))
            .arg(++m_intents, 4, 10, QLatin1Char('0'));
    };
    const auto nextNonce = [this](int key) {
        return m_nextNonce[key]++;
    };

    if (step == 0) {
        add(action, solanaTransfer(intent("payout"), kBlocksLeftNormally, false), true);
        add(action, evmTransfer(intent("payout"), kEvmPayer, nextNonce(kEvmPayer), 1000), true);
        add(action,
            evmTransfer(intent("refund"), kEvmReverting, nextNonce(kEvmReverting), 1000, false,
                        true),
            true);
        add(action, solanaTransfer(intent("late-payout"), kBlocksLeftExpiring, true), true);
        // Nonce 1 first: it waits in the pool until the app sends nonce 0.
        add(action, evmTransfer(intent("batch-2"), kEvmGapped, 1, 1000), true);
        add(action, evmTransfer(intent("withdrawal"), kEvmReplacing, 0, 1000, true), true);
        add(action, evmTransfer(intent("queued"), kEvmNeverSent, nextNonce(kEvmNeverSent), 1000),
            false);
        add(action, solanaWatchOnly(intent("watched")), false);
    } else if (step == kReplacedAtStep) {
        // The withdrawal never made it: the app signs a replacement with the same nonce.
        add(action, evmTransfer(intent("withdrawal-replacement"), kEvmReplacing, 0, 1001), true);
    } else if (step == kGapFilledAtStep) {
        add(action, evmTransfer(intent("batch-1"), kEvmGapped, 0, 1000), true);
    } else if (step >= kMoreFromStep && (step - kMoreFromStep) % kMoreEverySteps == 0 &&
               m_handedOver < kMaxTransactions) {
        switch ((step - kMoreFromStep) / kMoreEverySteps % 6) {
        case 0:
        case 2:
            add(action, solanaTransfer(intent("payout"), kBlocksLeftNormally, false), true);
            break;
        case 1:
        case 3:
            add(action, evmTransfer(intent("payout"), kEvmPayer, nextNonce(kEvmPayer), 1000), true);
            break;
        case 4:
            add(action, solanaTransfer(intent("late-payout"), kBlocksLeftExpiring, true), true);
            break;
        case 5:
            add(action,
                evmTransfer(intent("refund"), kEvmReverting, nextNonce(kEvmReverting), 1000, false,
                            true),
                true);
            break;
        }
    }
    m_handedOver += int(action.track.size());
    if (!action.track.isEmpty() || !action.send.isEmpty())
        queue(action);
}

void DemoTransactions::queue(Action action)
{
    m_queue.push_back(std::move(action));
    drain();
}

QCoro::Task<> DemoTransactions::drain()
{
    // One operation at a time, in order, as an application's send loop would.
    if (m_draining)
        co_return;
    m_draining = true;
    QPointer<DemoTransactions> self(this);
    while (!m_queue.empty() && m_tracker) {
        const Action action = m_queue.front();
        m_queue.pop_front();
        if (!action.track.isEmpty()) {
            const tracking::TrackResult tracked = co_await m_tracker->track(action.track);
            if (!self)
                co_return;
            if (!tracked.error.isEmpty()) {
                qWarning("demo: %s", qPrintable(tracked.error));
                continue;
            }
        }
        for (const QString& id : action.send) {
            if (!m_tracker)
                break;
            const tracking::SendReport sent = co_await m_tracker->send(id);
            if (!self)
                co_return;
            // Nobody to ask yet (the pool is still probing its nodes): the app tries again.
            if (sent.result == tracking::SendReport::Result::NoStatusNode ||
                sent.result == tracking::SendReport::Result::NoSendNode)
                m_retry.append(id);
        }
    }
    m_draining = false;
}

} // namespace switchyard::sim
