// Invariant campaign: random faults on every node (sends answered and then dropped, timeouts,
// refusals, 429/503, errors, stale views), random sends, rebroadcasts, polls, lost
// transactions and competing transactions from the sending system, over many seeds. For every
// tracked transaction it asserts:
// - at most one landed effect per intent (counted in the simulator's ledger);
// - no send after it was declared Expired or Superseded;
// - never two sends of it in flight;
// - while no node can be asked, nothing pending turns failed;
// - once the faults clear, its state agrees with the chain.
// The seeds are fixed; SWITCHYARD_RANDOM_SEEDS=1 adds new ones each run, and SWITCHYARD_SEED=N
// replays one seed. Every seed runs on an SQLite file; the first kPostgresSeeds also on a
// PostgreSQL database (tests/support), where a send's claim is a session's.
#include "pool/networkpool.h"
#include "teststores.h"
#include "trackingfixture.h"

#include <QRandomGenerator>
#include <QTest>

using namespace switchyard;
using namespace switchyard::testing;
using namespace switchyard::tracking;

namespace {

constexpr int kSeeds = 40;
// Of those, the ones also run on PostgreSQL: sized for a CI of two cores.
constexpr int kPostgresSeeds = 20;
constexpr int kSteps = 50;
constexpr int kTransactions = 6;

// What the campaign as a whole went through, so it cannot pass by exercising nothing.
QHash<QString, int>& totals()
{
    static QHash<QString, int> counts;
    return counts;
}

struct Tracked
{
    QString id;
    QString intent;
    bool hasLastValid = true;
    quint64 nonce = 0;
};

class Campaign
{
public:
    Campaign(quint32 seed, ChainFamily family, QString storeLocation)
        : m_seed(seed)
        , m_rng(seed)
        , m_f(family, {QStringLiteral("n0"), QStringLiteral("n1"), QStringLiteral("n2")}, options())
        , m_family(family)
    {
        m_f.storeLocation = std::move(storeLocation);
    }

    static TrackerOptions options()
    {
        TrackerOptions options;
        options.sendTimeoutMs = 250;
        options.statusDeadlineMs = 600;
        options.evmFinalityDepth = 4;
        return options;
    }

    // Returns the first violation, or an empty string.
    QString run()
    {
        m_f.pools.config.probe.timeoutMs = 250;
        // Roles: every node reads; status and send are spread so some rounds have one of each.
        const NodeRoles roles[] = {NodeRoles(NodeRole::Read) | NodeRole::Status | NodeRole::Send,
                                   NodeRoles(NodeRole::Read) | NodeRole::Status,
                                   NodeRoles(NodeRole::Read) | NodeRole::Send | NodeRole::Status};
        for (int i = 0; i < 3; ++i)
            m_f.setRoles(QStringLiteral("n%1").arg(i), roles[i]);
        if (!m_f.start())
            return QStringLiteral("the fixture did not start");
        watch();
        if (m_family == ChainFamily::Solana)
            m_f.solana().setLandingDelaySlots(int(m_rng.bounded(1, 6)));
        else
            m_f.evm().setInclusionDelayBlocks(int(m_rng.bounded(1, 3)));
        trackAll();
        for (int step = 0; step < kSteps && m_violation.isEmpty(); ++step)
            act();
        settleAndCheck();
        return m_violation;
    }

private:
    // The sending system's own send, to whichever node will take it (faults included).
    void sendDirect(const QString& method, const QJsonArray& params)
    {
        sim::SimulatedNode* node = m_f.pools.cluster.nodes()[int(m_rng.bounded(3))];
        JsonRpcClient client(QStringLiteral("sender"), node->url(), {});
        QCoro::waitFor(client.call({method, params}, QDeadlineTimer(1000)));
    }

    void violate(const QString& what)
    {
        if (m_violation.isEmpty())
            m_violation = QStringLiteral("seed %1: %2").arg(m_seed).arg(what);
    }

    void watch()
    {
        TransactionTracker* tracker = m_f.tracker.get();
        QObject::connect(tracker, &TransactionTracker::attemptStarted, tracker,
                         [this](const QString& id) {
                             if (++m_inFlight[id] > 1)
                                 violate(QStringLiteral("two sends of %1 in flight").arg(id));
                             const TxState state = m_f.state(id);
                             if (state == TxState::Expired || state == TxState::Superseded)
                                 violate(QStringLiteral("a send of %1 after it became %2")
                                             .arg(id, txStateKey(state)));
                         });
        QObject::connect(tracker, &TransactionTracker::attemptFinished, tracker,
                         [this](const QString& id, const QString&, SendOutcome outcome) {
                             --m_inFlight[id];
                             ++totals()[QStringLiteral("send:") + sendOutcomeKey(outcome)];
                         });
        QObject::connect(tracker, &TransactionTracker::transitioned, tracker,
                         [this](const TrackedTransaction& record, const StateTransition& change) {
                             if (isFailed(change.to) && isFailed(change.from))
                                 violate(QStringLiteral("%1 left a failed state").arg(record.id));
                             ++totals()[QStringLiteral("to:") + txStateKey(change.to)];
                             if (change.to == TxState::Expired || change.to == TxState::Superseded)
                                 m_sendsAtEnd.insert(record.id, m_f.totalSends(record.id));
                             if (m_noNodeWindow && isFailed(change.to))
                                 violate(QStringLiteral("%1 became %2 while no node could be "
                                                        "asked")
                                             .arg(record.id, txStateKey(change.to)));
                         });
    }

    void trackAll()
    {
        for (int i = 0; i < kTransactions; ++i) {
            Tracked t;
            t.intent = QStringLiteral("intent-%1").arg(i);
            QJsonObject line{{QStringLiteral("network"), m_f.pools.network.name},
                             {QStringLiteral("intentId"), t.intent}};
            if (m_family == ChainFamily::Solana) {
                const auto signed_ = m_f.signSolana(quint64(m_seed) * 100 + quint64(i), 1 + i);
                line.insert(QStringLiteral("wireBase64"),
                            chain::base64Encode(chain::asSpan(signed_.wire)));
                t.hasLastValid = m_rng.bounded(5) != 0;
                if (t.hasLastValid)
                    line.insert(QStringLiteral("lastValidBlockHeight"),
                                signed_.lastValidBlockHeight);
                const quint32 script = m_rng.bounded(6);
                if (script == 0)
                    m_f.solana().setScriptedOutcome(signed_.signature,
                                                    sim::ScriptedOutcome::NeverLands);
                else if (script == 1)
                    m_f.solana().setScriptedOutcome(signed_.signature,
                                                    sim::ScriptedOutcome::FailsOnExecution);
                // Often the sending system has sent it already (without preflight, so a
                // failing one lands with its error) before handing it over.
                if (m_rng.bounded(3) == 0)
                    sendDirect(
                        QStringLiteral("sendTransaction"),
                        QJsonArray{chain::base64Encode(chain::asSpan(signed_.wire)),
                                   QJsonObject{{"encoding", "base64"}, {"skipPreflight", true}}});
            } else {
                t.nonce = quint64(i);
                const QByteArray raw = m_f.signEvm(t.nonce, 1 + quint64(m_seed) * 10);
                line.insert(QStringLiteral("raw"), chain::hexEncode(raw));
                if (m_rng.bounded(5) == 0)
                    m_f.evm().setScriptedOutcome(chain::evm::decodeTransaction(raw)->id(),
                                                 sim::ScriptedOutcome::FailsOnExecution);
                if (m_rng.bounded(3) == 0)
                    sendDirect(QStringLiteral("eth_sendRawTransaction"),
                               QJsonArray{chain::hexEncode(raw)});
            }
            t.id = m_f.track(line).id;
            if (t.id.isEmpty()) {
                violate(QStringLiteral("transaction %1 could not be tracked").arg(i));
                return;
            }
            m_txs.append(t);
        }
        m_f.pools.clock.advance(1);
    }

    sim::Fault randomFault()
    {
        static const sim::FaultKind kinds[] = {sim::FaultKind::None,
                                               sim::FaultKind::None,
                                               sim::FaultKind::DropAfterRequest,
                                               sim::FaultKind::DropAfterRequest,
                                               sim::FaultKind::RefuseConnections,
                                               sim::FaultKind::ServiceUnavailable,
                                               sim::FaultKind::TooManyRequests,
                                               sim::FaultKind::ErrorResponse,
                                               sim::FaultKind::MalformedBody,
                                               sim::FaultKind::TruncatedBody,
                                               sim::FaultKind::NeverAnswer,
                                               sim::FaultKind::Delay};
        sim::Fault fault = faultOf(kinds[m_rng.bounded(int(std::size(kinds)))]);
        if (fault.kind == sim::FaultKind::Delay)
            fault.delayMs = 400; // past the send timeout: the answer comes too late
        // Often only the sends misbehave (answer dropped after the node took it).
        if (fault.kind != sim::FaultKind::None && fault.kind != sim::FaultKind::RefuseConnections &&
            m_rng.bounded(2) == 0)
            fault.methods = {m_family == ChainFamily::Solana
                                 ? QStringLiteral("sendTransaction")
                                 : QStringLiteral("eth_sendRawTransaction")};
        return fault;
    }

    void act()
    {
        const Tracked& t = m_txs[int(m_rng.bounded(int(m_txs.size())))];
        switch (m_rng.bounded(10)) {
        case 0:
        case 1:
            m_f.pools.cluster.advance(
                int(m_rng.bounded(1, m_family == ChainFamily::Solana ? 16 : 3)));
            break;
        case 2: {
            sim::SimulatedNode* node = m_f.pools.cluster.nodes()[int(m_rng.bounded(3))];
            node->setFault(randomFault());
            break;
        }
        case 3:
            m_f.pools.cluster.nodes()[int(m_rng.bounded(3))]->setStaleBy(m_rng.bounded(0, 12));
            break;
        case 4:
            m_f.poll();
            break;
        case 5: {
            // Two sends of one transaction at once, and one of another: the second must wait.
            QCoro::Task<SendReport> first = m_f.tracker->send(t.id);
            const Tracked& other = m_txs[int(m_rng.bounded(int(m_txs.size())))];
            QCoro::Task<SendReport> third = m_f.tracker->send(other.id);
            const bool firstInFlight = m_f.tracker->isSendInFlight(t.id);
            const SendReport second = m_f.send(t.id);
            if (firstInFlight && second.result != SendReport::Result::Refused)
                violate(QStringLiteral("a second send of %1 started while one was in flight")
                            .arg(t.id));
            QCoro::waitFor(std::move(first));
            QCoro::waitFor(std::move(third));
            break;
        }
        case 6:
            m_f.send(t.id);
            break;
        case 7: {
            // The network loses it, or (EVM) the sending system spends the nonce elsewhere.
            if (m_family == ChainFamily::Solana) {
                m_f.solana().dropPending(t.id);
            } else if (m_rng.bounded(2) == 0) {
                m_f.evm().dropPending(t.id);
            } else {
                const QByteArray other = m_f.signEvm(t.nonce, 5000 + m_rng.bounded(1000));
                const auto decoded = chain::evm::decodeTransaction(other);
                m_competitors.insert(t.intent, decoded->id().toLower());
                sendDirect(QStringLiteral("eth_sendRawTransaction"),
                           QJsonArray{chain::hexEncode(other)});
            }
            break;
        }
        case 8: {
            // No node can be asked: everything pending stays pending.
            QHash<QString, TxState> before;
            for (const Tracked& each : m_txs)
                before.insert(each.id, m_f.state(each.id));
            for (int i = 0; i < 3; ++i)
                m_f.pools.pool()->setDisabled(i, true);
            m_noNodeWindow = true;
            m_f.pools.cluster.advance(int(m_rng.bounded(1, 200)));
            m_f.poll();
            m_f.send(t.id);
            m_noNodeWindow = false;
            for (const Tracked& each : m_txs) {
                if (isPending(before[each.id]) && !isPending(m_f.state(each.id)))
                    violate(QStringLiteral("%1 left pending with no node to ask").arg(each.id));
            }
            for (int i = 0; i < 3; ++i)
                m_f.pools.pool()->setDisabled(i, false);
            break;
        }
        case 9:
            m_f.pools.advanceAndTick(int(m_rng.bounded(500, 3000)));
            break;
        }
    }

    // Faults off, everyone caught up and healthy, the chain far ahead: each state must match it.
    void settleAndCheck()
    {
        if (!m_violation.isEmpty())
            return;
        for (sim::SimulatedNode* node : m_f.pools.cluster.nodes()) {
            node->clearFault();
            node->setStaleBy(0);
        }
        // The campaign's 250 ms probe timeout keeps its faults cheap; settling needs every
        // node's answer, which a loaded machine may give later than that.
        m_f.pools.config.probe.timeoutMs = 10'000;
        m_f.pools.apply();
        for (int i = 0; i < 6; ++i)
            m_f.pools.advanceAndTick(m_f.pools.config.probe.recoveryIntervalMs);
        m_f.pools.cluster.advance(m_family == ChainFamily::Solana ? 400 : 8);
        for (int i = 0; i < 3; ++i) {
            m_f.pools.advanceAndTick(m_f.pools.config.probe.intervalMs);
            m_f.poll();
        }
        checkLandings();
        for (const Tracked& t : m_txs) {
            if (m_sendsAtEnd.contains(t.id) && m_f.totalSends(t.id) != m_sendsAtEnd[t.id])
                violate(QStringLiteral("%1 was sent after it failed").arg(t.id));
            if (m_inFlight.value(t.id) != 0)
                violate(QStringLiteral("%1 still counts a send in flight").arg(t.id));
            const TxState state = m_f.state(t.id);
            const QString got = txStateKey(state);
            if (m_family == ChainFamily::Solana) {
                const auto* record = m_f.solana().find(t.id);
                const bool landed =
                    record && m_f.solana().landedSlot(t.id, m_f.pools.cluster.head());
                if (landed) {
                    const bool failed = !record->executionError.isNull();
                    if (state != (failed ? TxState::ExecutionFailed : TxState::Finalized))
                        violate(QStringLiteral("%1 landed%2 but is %3")
                                    .arg(t.id,
                                         failed ? QStringLiteral(" with an error") : QString(),
                                         got));
                } else if (t.hasLastValid && state != TxState::Expired) {
                    violate(QStringLiteral("%1 never landed, its blockhash is long past, but it "
                                           "is %2")
                                .arg(t.id, got));
                } else if (!t.hasLastValid && !isPending(state)) {
                    violate(QStringLiteral("%1 (expiry undecidable) is %2").arg(t.id, got));
                }
            } else {
                const auto* record = m_f.evm().find(t.id);
                const bool mined = record && record->state == sim::EvmTransactionState::Mined;
                const QString sender = m_f.tracker->transaction(t.id)->sender;
                const bool nonceUsed =
                    m_f.evm().nonceAt(sender, m_f.pools.cluster.head()) > t.nonce;
                const TxState landedAs =
                    mined && record->reverted ? TxState::ExecutionFailed : TxState::Finalized;
                if (mined && state != landedAs)
                    violate(QStringLiteral("%1 was mined but is %2").arg(t.id, got));
                else if (!mined && nonceUsed && state != TxState::Superseded)
                    violate(QStringLiteral("%1's nonce went to another transaction but it is %2")
                                .arg(t.id, got));
                else if (!mined && !nonceUsed && !isPending(state))
                    violate(QStringLiteral("%1 is still possible but is %2").arg(t.id, got));
            }
        }
    }

    // At most one landed effect per intent: our transaction and any competitor of it.
    void checkLandings()
    {
        for (const Tracked& t : m_txs) {
            int landed = 0;
            if (m_family == ChainFamily::Solana) {
                landed += m_f.solana().landedSlot(t.id, m_f.pools.cluster.head()) ? 1 : 0;
            } else {
                for (const QString& hash : m_competitors.values(t.intent) + QStringList{t.id}) {
                    const auto* record = m_f.evm().find(hash);
                    landed += record && record->state == sim::EvmTransactionState::Mined ? 1 : 0;
                }
            }
            if (landed > 1)
                violate(QStringLiteral("intent %1 landed %2 times").arg(t.intent).arg(landed));
        }
    }

    quint32 m_seed;
    QRandomGenerator m_rng;
    TrackingFixture m_f;
    ChainFamily m_family;
    QList<Tracked> m_txs;
    QHash<QString, int> m_inFlight;
    QHash<QString, int> m_sendsAtEnd;
    QMultiHash<QString, QString> m_competitors; // intent -> hashes the sending system sent
    bool m_noNodeWindow = false;
    QString m_violation;
};

} // namespace

class TestInvariants : public QObject
{
    Q_OBJECT

private:
    TestStores m_stores;

private Q_SLOTS:
    void campaign_data()
    {
        QTest::addColumn<quint32>("seed");
        QTest::addColumn<QString>("engine");
        const QString sqlite = QString::fromLatin1(TestStores::sqlite);
        const QString postgresql = QString::fromLatin1(TestStores::postgresql);
        const QByteArray fixed = qgetenv("SWITCHYARD_SEED");
        if (!fixed.isEmpty()) {
            for (const QString& engine : {sqlite, postgresql})
                QTest::addRow("%s/%s", qPrintable(engine), fixed.constData())
                    << quint32(fixed.toUInt()) << engine;
            return;
        }
        // The same seeds every run, so that a red run is always a change's doing and replays.
        // SWITCHYARD_RANDOM_SEEDS=1 adds as many new ones, to find what no one thought of.
        const bool random = qEnvironmentVariableIntValue("SWITCHYARD_RANDOM_SEEDS") == 1;
        const quint32 base = 1'000'000 + QRandomGenerator::global()->generate() % 1'000'000;
        for (quint32 i = 0; i < (random ? 2 * kSeeds : kSeeds); ++i) {
            const quint32 seed = i < kSeeds ? i + 1 : base + i;
            QTest::addRow("%s/%u", qPrintable(sqlite), seed) << seed << sqlite;
        }
        for (quint32 seed = 1; seed <= quint32(kPostgresSeeds); ++seed)
            QTest::addRow("%s/%u", qPrintable(postgresql), seed) << seed << postgresql;
    }

    void campaign()
    {
        QFETCH(quint32, seed);
        QFETCH(QString, engine);
        SWITCHYARD_FRESH_STORE_OF(m_stores, engine, location);
        const ChainFamily family = seed % 2 == 0 ? ChainFamily::Solana : ChainFamily::Evm;
        qInfo("seed %u (%s); replay with SWITCHYARD_SEED=%u", seed, qPrintable(familyName(family)),
              seed);
        Campaign campaign(seed, family, location);
        const QString violation = campaign.run();
        QVERIFY2(violation.isEmpty(), qPrintable(violation));
    }

    void cleanupTestCase()
    {
        QStringList lines;
        for (auto it = totals().cbegin(); it != totals().cend(); ++it)
            lines << QStringLiteral("%1=%2").arg(it.key()).arg(it.value());
        lines.sort();
        qInfo("campaign totals: %s", qPrintable(lines.join(QLatin1Char(' '))));
        if (!qEnvironmentVariableIsEmpty("SWITCHYARD_SEED"))
            return;
        // Over all seeds the campaign must have hit the hard cases, not only the easy ones.
        for (const char* key :
             {"send:accepted", "send:unclear", "send:not-delivered", "to:transport-unknown",
              "to:confirmed", "to:finalized", "to:expired", "to:superseded", "to:execution-failed"})
            QVERIFY2(totals().value(QLatin1String(key)) > 0, key);
    }
};

QTEST_GUILESS_MAIN(TestInvariants)
#include "tst_invariants.moc"
