// The per-call routing table of resources/docs/design.md, row by row, against simulated nodes.
#include "pool/router.h"
#include "poolfixture.h"

#include <QJsonArray>
#include <QJsonObject>

using namespace switchyard;
using namespace switchyard::sim;
using namespace switchyard::testing;

Q_DECLARE_METATYPE(switchyard::sim::FaultKind)
Q_DECLARE_METATYPE(switchyard::FailureCause)

namespace {

const RpcRequest getSlot{QStringLiteral("getSlot"), QJsonValue::Undefined};

// A node's share of a call when the test needs no node to time out: a healthy node answers well
// within it on a loaded machine, and it is only spent when the test fails.
constexpr int kGenerousAttemptMs = 30'000;

RoutedCall route(const std::shared_ptr<NetworkPool>& pool, RpcRequest request = getSlot,
                 RouteOptions options = {})
{
    return QCoro::waitFor(routeCall(pool, std::move(request), options));
}

RoutedBatch routeSlotAndHeight(const std::shared_ptr<NetworkPool>& pool, RouteOptions options = {})
{
    const QList<RpcRequest> batch{getSlot,
                                  {QStringLiteral("getBlockHeight"), QJsonValue::Undefined}};
    return QCoro::waitFor(routeBatch(pool, batch, QStringLiteral("getSlot"), options));
}

qint64 failoversFor(const NetworkPool& pool, const QString& method, FailureCause cause)
{
    for (const FailoverStats::MethodRow& row : pool.failovers().summary(0))
        if (row.method == method)
            return row.byCause.value(cause);
    return 0;
}

} // namespace

class TestRouter : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<PoolFixture> m_fixture;

private Q_SLOTS:
    void init()
    {
        m_fixture = std::make_unique<PoolFixture>(
            ChainFamily::Solana,
            QStringList{QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c")});
        m_fixture->apply();
        m_fixture->probeAll();
        for (const QString& name : {QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c")})
            QCOMPARE(m_fixture->state(name), NodeState::Healthy);
        for (SimulatedNode* node : m_fixture->cluster.nodes())
            node->resetCounters();
    }

    void cleanup() { m_fixture.reset(); }

    void roundRobinAcrossHealthyNodes()
    {
        const auto pool = m_fixture->pool();
        QStringList answeredBy;
        for (int i = 0; i < 6; ++i)
            answeredBy.append(route(pool).answeredBy());
        QCOMPARE(answeredBy,
                 (QStringList{QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c"),
                              QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c")}));
    }

    void failingNodeMovesTheCall_data()
    {
        QTest::addColumn<FaultKind>("kind");
        QTest::addColumn<FailureCause>("cause");
        QTest::addColumn<int>("attemptTimeoutMs");
        QTest::newRow("connection refused")
            << FaultKind::RefuseConnections << FailureCause::Transport << kGenerousAttemptMs;
        QTest::newRow("reset after the request")
            << FaultKind::DropAfterRequest << FailureCause::Transport << kGenerousAttemptMs;
        QTest::newRow("truncated body")
            << FaultKind::TruncatedBody << FailureCause::Transport << kGenerousAttemptMs;
        // a's share ends it; b must answer within the same share, so not too short either.
        QTest::newRow("timeout") << FaultKind::NeverAnswer << FailureCause::Timeout << 2000;
        QTest::newRow("HTTP 429") << FaultKind::TooManyRequests << FailureCause::TooManyRequests
                                  << kGenerousAttemptMs;
        QTest::newRow("HTTP 503") << FaultKind::ServiceUnavailable << FailureCause::ServerError
                                  << kGenerousAttemptMs;
        QTest::newRow("not JSON") << FaultKind::MalformedBody << FailureCause::Malformed
                                  << kGenerousAttemptMs;
        QTest::newRow("wrong id") << FaultKind::WrongId << FailureCause::Malformed
                                  << kGenerousAttemptMs;
        QTest::newRow("over the size cap")
            << FaultKind::OversizedBody << FailureCause::Malformed << kGenerousAttemptMs;
    }

    void failingNodeMovesTheCall()
    {
        QFETCH(FaultKind, kind);
        QFETCH(FailureCause, cause);
        QFETCH(int, attemptTimeoutMs);
        Fault fault = faultOf(kind);
        fault.bodyBytes = 20 * 1024 * 1024;
        QVERIFY(m_fixture->simNode(QStringLiteral("a"))->setFault(fault));
        const auto pool = m_fixture->pool();

        RouteOptions options;
        options.attemptTimeoutMs = attemptTimeoutMs;
        const RoutedCall call = route(pool, getSlot, options);
        QVERIFY(call.answered());
        QCOMPARE(call.answeredBy(), QStringLiteral("b"));
        QCOMPARE(call.attempts.size(), 2);
        QCOMPARE(call.attempts.first().node, QStringLiteral("a"));
        QCOMPARE(failoversFor(*pool, QStringLiteral("getSlot"), cause), 1);
    }

    void answerAboutTheCallStops_data()
    {
        QTest::addColumn<FaultKind>("kind");
        QTest::addColumn<int>("outcome");
        QTest::newRow("HTTP 400") << FaultKind::BadRequest << int(OutcomeClass::HttpStatus);
        QTest::newRow("HTTP 404") << FaultKind::NotFound << int(OutcomeClass::HttpStatus);
        QTest::newRow("JSON-RPC error") << FaultKind::ErrorResponse << int(OutcomeClass::RpcError);
    }

    void answerAboutTheCallStops()
    {
        QFETCH(FaultKind, kind);
        QFETCH(int, outcome);
        QVERIFY(m_fixture->simNode(QStringLiteral("a"))->setFault(faultOf(kind)));
        const auto pool = m_fixture->pool();
        const RoutedCall call = route(pool);
        QVERIFY(call.reply);
        QCOMPARE(int(call.reply->outcomeClass()), outcome);
        QCOMPARE(call.reply->node, QStringLiteral("a"));
        QCOMPARE(call.attempts.size(), 1);
        QCOMPARE(m_fixture->simNode(QStringLiteral("b"))->requestCount(), 0);
        QCOMPARE(pool->failovers().lastFailoverMs(), std::nullopt);
    }

    void nullResultIsAnAnswer()
    {
        m_fixture->cluster.setMethod(QStringLiteral("getTransaction"),
                                     [](SimulatedNode&, const QJsonValue&) -> MethodResult {
                                         return QJsonValue(QJsonValue::Null);
                                     });
        const RoutedCall call = route(
            m_fixture->pool(), {QStringLiteral("getTransaction"), QJsonArray{QStringLiteral("x")}});
        QVERIFY(call.answered());
        QVERIFY(call.reply->result().isNull());
        QCOMPARE(call.attempts.size(), 1);
    }

    void atMostOneLap()
    {
        for (SimulatedNode* node : m_fixture->cluster.nodes())
            QVERIFY(node->setFault(faultOf(FaultKind::ServiceUnavailable)));
        const auto pool = m_fixture->pool();
        const RoutedCall call = route(pool);
        QVERIFY(!call.answered());
        QVERIFY(!call.noEligibleNode);
        QCOMPARE(call.attempts.size(), 3);
        QCOMPARE(std::get<HttpFailure>(call.reply->outcome).status, 503);
        // Two moves to another node; the third failure had nowhere to go.
        QCOMPARE(failoversFor(*pool, QStringLiteral("getSlot"), FailureCause::ServerError), 2);
        for (SimulatedNode* node : m_fixture->cluster.nodes())
            QCOMPARE(node->methodCount(QStringLiteral("getSlot")), 1);
    }

    void oneDeadlineForTheWholeCall()
    {
        // a fails at once; b and c never answer, and a node's own share (30 s) would outlast
        // the call's deadline by far.
        QVERIFY(m_fixture->simNode(QStringLiteral("a"))
                    ->setFault(faultOf(FaultKind::RefuseConnections)));
        QVERIFY(m_fixture->simNode(QStringLiteral("b"))->setFault(faultOf(FaultKind::NeverAnswer)));
        QVERIFY(m_fixture->simNode(QStringLiteral("c"))->setFault(faultOf(FaultKind::NeverAnswer)));
        const auto pool = m_fixture->pool();
        RouteOptions options;
        options.deadlineMs = 1000;
        options.attemptTimeoutMs = kGenerousAttemptMs;
        QElapsedTimer elapsed;
        elapsed.start();
        const RoutedCall call = route(pool, getSlot, options);
        // Only a lower bound on the wall clock: a loaded machine makes the call later, never
        // earlier, so the order of what happened is what shows the deadline at work.
        QVERIFY2(elapsed.elapsed() >= options.deadlineMs - 10,
                 qPrintable(QString::number(elapsed.elapsed())));
        QCOMPARE(call.attempts.size(), 2);
        QCOMPARE(call.attempts[0].node, QStringLiteral("a"));
        QCOMPARE(std::get<TransportFailure>(call.attempts[0].outcome).kind,
                 TransportFailureKind::Refused);
        // b gets what is left of the deadline, not its own share...
        QCOMPARE(call.attempts[1].node, QStringLiteral("b"));
        QCOMPARE(std::get<TransportFailure>(call.reply->outcome).kind,
                 TransportFailureKind::Timeout);
        QVERIFY2(call.attempts[1].latencyMs < options.attemptTimeoutMs,
                 qPrintable(QString::number(call.attempts[1].latencyMs)));
        // ...and once it is spent nobody else is asked, and b's failure moves nothing.
        QCOMPARE(m_fixture->simNode(QStringLiteral("c"))->requestCount(), 0);
        QCOMPARE(failoversFor(*pool, QStringLiteral("getSlot"), FailureCause::Transport), 1);
        QCOMPARE(failoversFor(*pool, QStringLiteral("getSlot"), FailureCause::Timeout), 0);
    }

    void noEligibleNodeIsNotAFailure()
    {
        const auto pool = m_fixture->pool();
        for (int i = 0; i < pool->nodeCount(); ++i)
            pool->setDisabled(i, true);
        const RoutedCall call = route(pool);
        QVERIFY(call.noEligibleNode);
        QVERIFY(!call.reply);
        QVERIFY(call.attempts.isEmpty());
    }

    void retryAfterCoolsTheNodeDown()
    {
        Fault tooMany = faultOf(FaultKind::TooManyRequests);
        tooMany.retryAfterSeconds = 5;
        SimulatedNode* a = m_fixture->simNode(QStringLiteral("a"));
        QVERIFY(a->setFault(tooMany));
        const auto pool = m_fixture->pool();
        QCOMPARE(route(pool).answeredBy(), QStringLiteral("b"));
        a->clearFault();
        for (int i = 0; i < 4; ++i)
            QVERIFY(route(pool).answeredBy() != QStringLiteral("a"));
        QCOMPARE(a->methodCount(QStringLiteral("getSlot")), 1);
        QVERIFY(!pool->eligibleNodes(NodeRole::Read).contains(pool->indexOf(QStringLiteral("a"))));

        m_fixture->clock.advance(5'000);
        QVERIFY(pool->eligibleNodes(NodeRole::Read).contains(pool->indexOf(QStringLiteral("a"))));
    }

    // An answer the caller finds no valid answer to its question counts as a malformed answer
    // of its node, and the next node is asked: a call and a batch alike.
    void invalidAnswerMovesOn()
    {
        const auto pool = m_fixture->pool();
        QStringList checked;
        RouteOptions options;
        options.checkAnswer = [&checked](const QList<RpcReply>& replies) {
            checked.append(replies.constFirst().node);
            return checked.size() == 1 ? QStringLiteral("a slot from the future") : QString();
        };
        const RoutedCall call = route(pool, getSlot, options);
        QVERIFY(call.answered());
        QCOMPARE(call.attempts.size(), 2);
        const auto* invalid = std::get_if<MalformedReply>(&call.attempts.constFirst().outcome);
        QVERIFY(invalid);
        QCOMPARE(invalid->kind, MalformedKind::InvalidAnswer);
        QCOMPARE(invalid->detail, QStringLiteral("a slot from the future"));
        QCOMPARE(call.answeredBy(), checked.at(1));
        QCOMPARE(failoversFor(*pool, QStringLiteral("getSlot"), FailureCause::Malformed), 1);

        checked.clear();
        const RoutedBatch batch = routeSlotAndHeight(pool, options);
        QVERIFY(batch.answered());
        QCOMPARE(batch.attempts.size(), 2);
        QCOMPARE(batch.attempts.constFirst().outcomeClass(), OutcomeClass::Malformed);
        QCOMPARE(batch.node, checked.at(1));
        QCOMPARE(failoversFor(*pool, QStringLiteral("getSlot"), FailureCause::Malformed), 2);
    }

    void pinKeepsAcrossNodes()
    {
        // a fails over to b; b is behind the pinned slot and must say so, not answer older.
        QVERIFY(m_fixture->simNode(QStringLiteral("a"))
                    ->setFault(faultOf(FaultKind::ServiceUnavailable)));
        m_fixture->simNode(QStringLiteral("b"))->setStaleBy(5);
        const qint64 pin = m_fixture->cluster.headSlot();
        const RoutedCall call = route(
            m_fixture->pool(), {QStringLiteral("getSlot"),
                                QJsonArray{QJsonObject{{QStringLiteral("minContextSlot"), pin}}}});
        QCOMPARE(call.reply->node, QStringLiteral("b"));
        QCOMPARE(std::get<RpcError>(call.reply->outcome).code, -32016);
    }

    void failoverIsATimelineEvent()
    {
        QVERIFY(m_fixture->simNode(QStringLiteral("a"))
                    ->setFault(faultOf(FaultKind::ServiceUnavailable)));
        QSignalSpy incidents(&m_fixture->manager, &PoolManager::incident);
        route(m_fixture->pool());
        QCOMPARE(incidents.count(), 1);
        const auto event = incidents.first().first().value<IncidentEvent>();
        QCOMPARE(event.kind, IncidentEvent::Kind::Failover);
        QCOMPARE(event.node, QStringLiteral("a"));
        QCOMPARE(event.method, QStringLiteral("getSlot"));
        QVERIFY(event.message.contains(QStringLiteral("5xx")));
    }

    // A batch follows the same rules as one call; one node answers every element of it.
    void batchRoundRobinOneNodeAnswersAll()
    {
        const auto pool = m_fixture->pool();
        QStringList answeredBy;
        for (int i = 0; i < 4; ++i) {
            const RoutedBatch batch = routeSlotAndHeight(pool);
            QVERIFY(batch.answered());
            QCOMPARE(batch.replies.size(), 2);
            for (const RpcReply& reply : batch.replies)
                QCOMPARE(reply.node, batch.node);
            QCOMPARE(batch.replies[0].result().toInteger(), m_fixture->simNode(batch.node)->slot());
            answeredBy.append(batch.node);
        }
        QCOMPARE(answeredBy, (QStringList{QStringLiteral("a"), QStringLiteral("b"),
                                          QStringLiteral("c"), QStringLiteral("a")}));
    }

    void batchFailingNodeMovesIt_data()
    {
        QTest::addColumn<FaultKind>("kind");
        QTest::addColumn<FailureCause>("cause");
        QTest::newRow("connection refused")
            << FaultKind::RefuseConnections << FailureCause::Transport;
        QTest::newRow("HTTP 503") << FaultKind::ServiceUnavailable << FailureCause::ServerError;
        QTest::newRow("HTTP 429") << FaultKind::TooManyRequests << FailureCause::TooManyRequests;
        QTest::newRow("not JSON") << FaultKind::MalformedBody << FailureCause::Malformed;
    }

    void batchFailingNodeMovesIt()
    {
        QFETCH(FaultKind, kind);
        QFETCH(FailureCause, cause);
        QVERIFY(m_fixture->simNode(QStringLiteral("a"))->setFault(faultOf(kind)));
        const auto pool = m_fixture->pool();
        const RoutedBatch batch = routeSlotAndHeight(pool);
        QVERIFY(batch.answered());
        QCOMPARE(batch.node, QStringLiteral("b"));
        QCOMPARE(batch.attempts.size(), 2);
        QCOMPARE(batch.attempts.first().node, QStringLiteral("a"));
        // Counted once, under the method that names the batch.
        QCOMPARE(failoversFor(*pool, QStringLiteral("getSlot"), cause), 1);
        QCOMPARE(failoversFor(*pool, QStringLiteral("getBlockHeight"), cause), 0);
    }

    void batchRefusedRequestStops()
    {
        QVERIFY(m_fixture->simNode(QStringLiteral("a"))->setFault(faultOf(FaultKind::BadRequest)));
        const auto pool = m_fixture->pool();
        const RoutedBatch batch = routeSlotAndHeight(pool);
        QVERIFY(!batch.answered());
        QVERIFY(!batch.noEligibleNode);
        QCOMPARE(batch.attempts.size(), 1);
        QCOMPARE(m_fixture->simNode(QStringLiteral("b"))->requestCount(), 0);
        QCOMPARE(pool->failovers().lastFailoverMs(), std::nullopt);
    }

    void batchEveryNodeFailingIsOneLap()
    {
        for (SimulatedNode* node : m_fixture->cluster.nodes())
            QVERIFY(node->setFault(faultOf(FaultKind::ServiceUnavailable)));
        const auto pool = m_fixture->pool();
        const RoutedBatch batch = routeSlotAndHeight(pool);
        QVERIFY(!batch.answered());
        QCOMPARE(batch.attempts.size(), 3);
        QCOMPARE(failoversFor(*pool, QStringLiteral("getSlot"), FailureCause::ServerError), 2);
    }

    void batchNoEligibleNode()
    {
        const auto pool = m_fixture->pool();
        for (int i = 0; i < pool->nodeCount(); ++i)
            pool->setDisabled(i, true);
        const RoutedBatch batch = routeSlotAndHeight(pool);
        QVERIFY(batch.noEligibleNode);
        QVERIFY(batch.attempts.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestRouter)
#include "tst_router.moc"
