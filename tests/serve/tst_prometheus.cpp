// The shipped dashboard and alert rules against a real Prometheus (Debian's prometheus and
// promtool) scraping `switchyard serve` every second, on loopback, from a temporary directory:
// promtool accepts the rules and a scrape; every PromQL expression of the dashboard and of the
// rules returns data through the HTTP API (a renamed metric cannot hide); and a role losing its
// last node makes SwitchyardRoleWithoutNode go pending.
#include "chain/codec/base58.h"
#include "commandrunner.h"
#include "servefixture.h"

#include <QJsonValue>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTcpServer>
#include <QUrlQuery>

using namespace switchyard;
using namespace switchyard::testing;

namespace {

const QString kMonitoring = QStringLiteral(SWITCHYARD_MONITORING_DIR);

QByteArray readAll(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// Every "expr" of every panel's targets.
void collectExpressions(const QJsonValue& value, QStringList* out)
{
    if (value.isArray()) {
        for (const QJsonValue& each : value.toArray())
            collectExpressions(each, out);
    } else if (value.isObject()) {
        const QJsonObject object = value.toObject();
        for (auto it = object.begin(); it != object.end(); ++it) {
            if (it.key() == QLatin1String("expr") && it.value().isString())
                out->append(it.value().toString());
            else if (it.key() != QLatin1String("templating"))
                collectExpressions(it.value(), out);
        }
    }
}

// A free loopback port for Prometheus (it takes no port 0).
quint16 freePort()
{
    QTcpServer probe;
    return probe.listen(QHostAddress::LocalHost) ? probe.serverPort() : 0;
}

struct Run
{
    int exitCode = -1;
    QByteArray output;
};

Run runTool(const QString& program, const QStringList& arguments, const QByteArray& input = {})
{
    QProcess process;
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.start(program, arguments);
    process.write(input);
    process.closeWriteChannel();
    if (!process.waitForFinished(kServeWaitMs))
        return {-1, process.readAll()};
    return {process.exitCode(), process.readAll()};
}

} // namespace

class TestPrometheus : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    quint16 m_prometheusPort = 0;

    // The result list of an instant query; empty on any error.
    QJsonArray query(const QString& expression)
    {
        QUrl url(QStringLiteral("http://127.0.0.1:%1/api/v1/query").arg(m_prometheusPort));
        url.setQuery(QUrlQuery{
            {QStringLiteral("query"), QString::fromUtf8(QUrl::toPercentEncoding(expression))}});
        const HttpAnswer answer = httpGet(url);
        const QJsonObject reply = QJsonDocument::fromJson(answer.body).object();
        if (reply[QStringLiteral("status")].toString() != QLatin1String("success")) {
            qWarning("%s: %s", qPrintable(expression), answer.body.constData());
            return {};
        }
        return reply[QStringLiteral("data")][QStringLiteral("result")].toArray();
    }

private Q_SLOTS:
    void dashboardAndRulesAgainstARealPrometheus()
    {
        if (QStandardPaths::findExecutable(QStringLiteral("prometheus")).isEmpty() ||
            QStandardPaths::findExecutable(QStringLiteral("promtool")).isEmpty())
            QFAIL("prometheus and promtool are needed (Debian package prometheus, installer/dev)");
        const QString rulesPath = kMonitoring + QStringLiteral("/switchyard-alerts.yml");
        const QByteArray rules = readAll(rulesPath);
        const QJsonDocument dashboard = QJsonDocument::fromJson(
            readAll(kMonitoring + QStringLiteral("/switchyard-dashboard.json")));
        QVERIFY(!rules.isEmpty());
        QVERIFY(dashboard.isObject());

        const Run checkRules =
            runTool(QStringLiteral("promtool"),
                    {QStringLiteral("check"), QStringLiteral("rules"), rulesPath});
        QVERIFY2(checkRules.exitCode == 0, checkRules.output.constData());

        // A pool whose status calls fail over (node "a" answers them with 503), a send role held
        // by one node, and one watched id so the tracker polls.
        sim::SimulatedCluster cluster(ChainFamily::Solana, QStringLiteral("local"), nullptr);
        sim::SimulatedNode* first = cluster.addNode(QStringLiteral("a"));
        cluster.addNode(QStringLiteral("b"));
        sim::SimulatedNode* sender = cluster.addNode(QStringLiteral("sender"));
        sim::Fault unavailable;
        unavailable.kind = sim::FaultKind::ServiceUnavailable;
        // Both calls of a status round: the height call's answer moves the rotation past its
        // node, so a fault on one method alone could always be stepped around.
        unavailable.methods = {QStringLiteral("getBlockHeight"),
                               QStringLiteral("getSignatureStatuses")};
        QVERIFY(first->setFault(unavailable));
        const QString config = writeServeConfig(
            m_dir.filePath(QStringLiteral("config.json")), cluster,
            {{QStringLiteral("a"), {QStringLiteral("read"), QStringLiteral("status")}},
             {QStringLiteral("b"), {QStringLiteral("read"), QStringLiteral("status")}},
             {QStringLiteral("sender"), {QStringLiteral("send")}}});
        const QString db = m_dir.filePath(QStringLiteral("store.db"));
        QByteArray signature(64, Qt::Uninitialized);
        QRandomGenerator::global()->fillRange(reinterpret_cast<quint32*>(signature.data()), 16);
        const CommandRun tracked =
            runSwitchyard({QStringLiteral("track"), QStringLiteral("--config"), config,
                           QStringLiteral("--db"), db, chain::base58Encode(signature)});
        QVERIFY2(tracked.exitCode == 0, tracked.err.constData());

        ServeProcess serve({QStringLiteral("--config"), config, QStringLiteral("--db"), db,
                            QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0")},
                           m_dir.path());
        const quint16 servePort = serve.waitForPort();
        QVERIFY2(servePort != 0, serve.err().constData());

        m_prometheusPort = freePort();
        QVERIFY(m_prometheusPort != 0);
        const QString prometheusConfig = m_dir.filePath(QStringLiteral("prometheus.yml"));
        {
            QFile file(prometheusConfig);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(QStringLiteral("global:\n"
                                      "  scrape_interval: 1s\n"
                                      "  evaluation_interval: 1s\n"
                                      "rule_files:\n"
                                      "  - %1\n"
                                      "scrape_configs:\n"
                                      "  - job_name: switchyard\n"
                                      "    static_configs:\n"
                                      "      - targets: ['127.0.0.1:%2']\n")
                           .arg(rulesPath)
                           .arg(servePort)
                           .toUtf8());
        }
        QProcess prometheus;
        prometheus.setProcessChannelMode(QProcess::MergedChannels);
        QByteArray prometheusLog;
        connect(&prometheus, &QProcess::readyRead, this,
                [&] { prometheusLog += prometheus.readAll(); });
        prometheus.start(
            QStringLiteral("prometheus"),
            {QStringLiteral("--config.file=") + prometheusConfig,
             QStringLiteral("--storage.tsdb.path=") + m_dir.filePath(QStringLiteral("tsdb")),
             QStringLiteral("--web.listen-address=127.0.0.1:%1").arg(m_prometheusPort)});
        const auto stopPrometheus = qScopeGuard([&prometheus] {
            prometheus.terminate();
            if (!prometheus.waitForFinished(kServeWaitMs)) {
                prometheus.kill();
                prometheus.waitForFinished();
            }
        });
        QVERIFY(prometheus.waitForStarted(kServeWaitMs));

        // promtool reads a scrape as Prometheus gets it.
        QTRY_VERIFY_WITH_TIMEOUT(httpGet(serve.url(QStringLiteral("/readyz"))).status == 200,
                                 kServeWaitMs);
        const HttpAnswer scrape = httpGet(serve.url(QStringLiteral("/metrics")));
        const Run checkMetrics =
            runTool(QStringLiteral("promtool"),
                    {QStringLiteral("check"), QStringLiteral("metrics")}, scrape.body);
        QVERIFY2(checkMetrics.exitCode == 0, checkMetrics.output.constData());

        QTRY_VERIFY2_WITH_TIMEOUT(!query(QStringLiteral("switchyard_build_info")).isEmpty(),
                                  prometheusLog.constData(), kServeWaitMs);

        // Grafana's variables as the dashboard's "All" sets them; the rules' comparisons made
        // into `bool` ones, so that a rule that does not fire still answers (0) for every series
        // its metric names select.
        QStringList expressions;
        collectExpressions(dashboard.object(), &expressions);
        QVERIFY(expressions.size() >= 10);
        for (QString& expression : expressions)
            expression.replace(QStringLiteral("$__rate_interval"), QStringLiteral("30s"))
                .replace(QStringLiteral("$network"), QStringLiteral(".+"));
        static const QRegularExpression ruleExpression(QStringLiteral("^\\s+expr: (.+)$"),
                                                       QRegularExpression::MultilineOption);
        static const QRegularExpression comparison(QStringLiteral(" (==|!=|>=|<=|>|<) "));
        int ruleCount = 0;
        for (auto match = ruleExpression.globalMatch(QString::fromUtf8(rules)); match.hasNext();) {
            QString expression = match.next().captured(1);
            expressions.append(expression.replace(comparison, QStringLiteral(" \\1 bool ")));
            ++ruleCount;
        }
        QCOMPARE(ruleCount, 8);
        for (const QString& expression : std::as_const(expressions))
            QTRY_VERIFY2_WITH_TIMEOUT(!query(expression).isEmpty(), qPrintable(expression),
                                      kServeWaitMs);

        // The send role loses its only node.
        sim::Fault refuse;
        refuse.kind = sim::FaultKind::RefuseConnections;
        QVERIFY(sender->setFault(refuse));
        const auto roleAlert = [&]() -> QString {
            const HttpAnswer answer = httpGet(
                QUrl(QStringLiteral("http://127.0.0.1:%1/api/v1/alerts").arg(m_prometheusPort)));
            const QJsonArray alerts =
                QJsonDocument::fromJson(
                    answer.body)[QStringLiteral("data")][QStringLiteral("alerts")]
                    .toArray();
            for (const QJsonValue& alert : alerts) {
                const QJsonObject labels = alert[QStringLiteral("labels")].toObject();
                if (labels[QStringLiteral("alertname")].toString() ==
                        QLatin1String("SwitchyardRoleWithoutNode") &&
                    labels[QStringLiteral("role")].toString() == QLatin1String("send") &&
                    labels[QStringLiteral("network")].toString() == QLatin1String("local"))
                    return alert[QStringLiteral("state")].toString();
            }
            return {};
        };
        QCOMPARE(roleAlert(), QString());
        QTRY_COMPARE_WITH_TIMEOUT(roleAlert(), QStringLiteral("pending"), kServeWaitMs);
    }
};

QTEST_GUILESS_MAIN(TestPrometheus)
#include "tst_prometheus.moc"
