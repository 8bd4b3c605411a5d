// What a team's desks cost the providers (#24): the requests per minute the nodes receive from
// one collector (`switchyard serve`) and DESKS viewer desks on one PostgreSQL store, against the
// collector alone and against DESKS standalone desks (each on an SQLite store of its own, as
// before a team store). Every desk and the collector track the same TRACKED transactions (watch
// only, never landing: polled for as long as the run lasts), so the figure holds status polls as
// well as probes.
//   bench_team [DESKS=10] [SECONDS=60] [NODES=4] [TRACKED=20]
// The nodes are the simulator in a process of its own (simnodes), which counts the requests it
// served; the desks are the real window (QT_QPA_PLATFORM=offscreen), each with a home of its own;
// the PostgreSQL server is the tests' (tests/support: initdb and pg_ctl in a temporary folder).
// Each setup is started, left WARMUP s to settle, then counted over SECONDS; every process's CPU
// is read from /proc over the same span. Logs of every process: $TMPDIR/bench_team/.
// Goal: the collector and its viewer desks ask the providers no more than the collector alone.
#include "benchcontext.h"
#include "chain/codec/base58.h"
#include "postgresserver.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QThread>
#include <algorithm>
#include <csignal>
#include <memory>
#include <sys/prctl.h>
#include <unistd.h>
#include <vector>

using namespace switchyard;

namespace {

constexpr int kWarmupSeconds = 20;

[[noreturn]] void fail(const QString& why)
{
    std::fprintf(stderr, "bench_team: %s\n", qPrintable(why));
    std::exit(1);
}

struct Counts
{
    qint64 requests = 0;
    qint64 statusCalls = 0;
};

// The simulated nodes, in a process of their own so that their CPU is not the desks'.
class Simulator
{
public:
    explicit Simulator(int nodes)
    {
        m_process.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        m_process.start(QStringLiteral(SIMNODES_BINARY), {QString::number(nodes)});
        if (!m_process.waitForStarted() || !m_process.waitForReadyRead(30'000))
            fail(QStringLiteral("simnodes did not start: ") + m_process.errorString());
        m_configuration = m_process.readLine().trimmed();
    }
    ~Simulator()
    {
        m_process.closeWriteChannel();
        if (!m_process.waitForFinished(5000))
            m_process.kill();
    }

    QByteArray configuration() const { return m_configuration; }
    qint64 pid() const { return m_process.processId(); }

    Counts counts()
    {
        m_process.write("\n");
        if (!m_process.waitForReadyRead(10'000))
            fail(QStringLiteral("simnodes did not answer with its counts"));
        static const QRegularExpression line(
            QStringLiteral("^requests (\\d+) getSignatureStatuses (\\d+)"));
        const QRegularExpressionMatch match =
            line.match(QString::fromLatin1(m_process.readLine().trimmed()));
        if (!match.hasMatch())
            fail(QStringLiteral("simnodes printed no counts"));
        return {match.captured(1).toLongLong(), match.captured(2).toLongLong()};
    }

private:
    QProcess m_process;
    QByteArray m_configuration;
};

// User and system CPU the process has used, in seconds.
double cpuSeconds(qint64 pid)
{
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return 0;
    // After the command's closing parenthesis: state is field 3, utime 14, stime 15.
    const QByteArray text = stat.readAll();
    const QList<QByteArray> fields = text.mid(text.lastIndexOf(')') + 2).split(' ');
    if (fields.size() < 13)
        return 0;
    return double(fields.at(11).toLongLong() + fields.at(12).toLongLong()) /
           double(sysconf(_SC_CLK_TCK));
}

struct Started
{
    QString name; // "collector", "desk 3"
    std::unique_ptr<QProcess> process;
};

class Run
{
public:
    Run(QString logs, QString binary)
        : m_logs(std::move(logs))
        , m_binary(std::move(binary))
    {}

    void start(const QString& name, const QStringList& arguments, const QString& home = {})
    {
        auto process = std::make_unique<QProcess>();
        const QString log =
            QStringLiteral("%1/%2.log").arg(m_logs, QString(name).replace(u' ', u'-'));
        process->setStandardOutputFile(log);
        process->setStandardErrorFile(log, QIODevice::Append);
        if (!home.isEmpty()) {
            QDir().mkpath(home);
            QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
            environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
            environment.insert(QStringLiteral("HOME"), home);
            for (const char* folder : {"XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"})
                environment.insert(QLatin1String(folder), home + u'/' + QLatin1String(folder));
            process->setProcessEnvironment(environment);
        }
        // A run that fails exits at once: its desks and collectors must not outlive it.
        process->setChildProcessModifier([] { ::prctl(PR_SET_PDEATHSIG, SIGTERM); });
        process->start(m_binary, arguments);
        if (!process->waitForStarted())
            fail(QStringLiteral("%1 did not start: %2").arg(name, process->errorString()));
        m_started.push_back({name, std::move(process)});
    }

    // Counts the requests the nodes served and every process's CPU over `seconds`, after the
    // warm-up; each process must still run at the end.
    struct Figures
    {
        double requestsPerMinute = 0;
        double statusCallsPerMinute = 0;
        QList<double> cpuPercent; // in start order
    };
    Figures measure(Simulator& simulator, int seconds)
    {
        QThread::sleep(kWarmupSeconds);
        std::vector<double> cpuBefore;
        for (const Started& started : m_started)
            cpuBefore.push_back(cpuSeconds(started.process->processId()));
        const Counts before = simulator.counts();
        QThread::sleep(seconds);
        const Counts after = simulator.counts();
        Figures figures;
        for (std::size_t i = 0; i < m_started.size(); ++i) {
            const Started& started = m_started[i];
            if (started.process->state() != QProcess::Running)
                fail(QStringLiteral("%1 ended during the run: see %2").arg(started.name, m_logs));
            figures.cpuPercent.append(
                100 * (cpuSeconds(started.process->processId()) - cpuBefore[i]) / seconds);
        }
        figures.requestsPerMinute = double(after.requests - before.requests) * 60 / seconds;
        figures.statusCallsPerMinute =
            double(after.statusCalls - before.statusCalls) * 60 / seconds;
        return figures;
    }

    // SIGTERM, as systemd and a desktop session stop them; they give leases and claims back.
    void stopAll()
    {
        for (Started& started : m_started)
            started.process->terminate();
        for (Started& started : m_started) {
            if (!started.process->waitForFinished(15'000)) {
                std::fprintf(stderr, "bench_team: %s did not stop on SIGTERM; killed\n",
                             qPrintable(started.name));
                started.process->kill();
                started.process->waitForFinished();
            }
        }
        m_started.clear();
    }

private:
    QString m_logs;
    QString m_binary;
    std::vector<Started> m_started;
};

void track(const QString& binary, const QString& config, const QString& store,
           const QByteArray& ids)
{
    QProcess process;
    process.start(binary, {QStringLiteral("track"), QStringLiteral("--config"), config,
                           QStringLiteral("--db"), store, QStringLiteral("-")});
    process.write(ids);
    process.closeWriteChannel();
    if (!process.waitForFinished(60'000) || process.exitCode() != 0)
        fail(QStringLiteral("switchyard track into %1 failed: %2")
                 .arg(store, QString::fromUtf8(process.readAllStandardError())));
}

QString describeCpu(const QList<double>& cpu)
{
    if (cpu.isEmpty())
        return QStringLiteral("–");
    double sum = 0;
    for (double percent : cpu)
        sum += percent;
    return QStringLiteral("%1 % each (max %2 %)")
        .arg(sum / double(cpu.size()), 0, 'f', 1)
        .arg(*std::max_element(cpu.cbegin(), cpu.cend()), 0, 'f', 1);
}

} // namespace

int main(int argc, char* argv[])
{
    QCoreApplication app(argc, argv);
    const QStringList args = QCoreApplication::arguments().mid(1);
    const int desks = args.value(0, QStringLiteral("10")).toInt();
    const int seconds = args.value(1, QStringLiteral("60")).toInt();
    const int nodes = args.value(2, QStringLiteral("4")).toInt();
    const int tracked = args.value(3, QStringLiteral("20")).toInt();
    if (desks < 1 || seconds < 1 || nodes < 1 || tracked < 0)
        fail(QStringLiteral("usage: bench_team [DESKS=10] [SECONDS=60] [NODES=4] [TRACKED=20]"));
    if (const QString reason = testing::PostgresServer::unavailableReason(); !reason.isEmpty())
        fail(QStringLiteral("no PostgreSQL server can be started: ") + reason);

    bench::printContext();
    std::printf("load: %d desks, %d simulated nodes, %d tracked transactions; warm-up %d s, "
                "counted over %d s\n",
                desks, nodes, tracked, kWarmupSeconds, seconds);

    const QString logs = QDir::temp().filePath(QStringLiteral("bench_team"));
    QDir(logs).removeRecursively();
    QDir().mkpath(logs);
    QTemporaryDir dir;
    testing::PostgresServer server;
    if (const QString error = server.start(); !error.isEmpty())
        fail(error);
    const QString teamStore = server.url();

    Simulator simulator(nodes);
    const QString config = dir.filePath(QStringLiteral("config.json"));
    QFile configFile(config);
    if (!configFile.open(QIODevice::WriteOnly) ||
        configFile.write(simulator.configuration()) != simulator.configuration().size())
        fail(config + QStringLiteral(": cannot write"));
    configFile.close();

    QByteArray ids;
    for (int i = 0; i < tracked; ++i) {
        const QByteArray seed = "bench_team " + QByteArray::number(i);
        const QByteArray signature =
            QCryptographicHash::hash(seed, QCryptographicHash::Sha512).left(64);
        ids += chain::base58Encode(signature).toLatin1() + '\n';
    }
    track(QStringLiteral(SWITCHYARD_BINARY), config, teamStore, ids);

    const QString binary = QStringLiteral(SWITCHYARD_BINARY);
    const QStringList serve{QStringLiteral("serve"),
                            QStringLiteral("--config"),
                            config,
                            QStringLiteral("--db"),
                            teamStore,
                            QStringLiteral("--listen"),
                            QStringLiteral("127.0.0.1:0")};
    Run run(logs, binary);
    const auto home = [&](const QString& setup, int desk) {
        return dir.filePath(QStringLiteral("%1/desk-%2").arg(setup).arg(desk));
    };

    run.start(QStringLiteral("collector alone"), serve);
    const Run::Figures alone = run.measure(simulator, seconds);
    run.stopAll();

    run.start(QStringLiteral("team collector"), serve);
    for (int i = 0; i < desks; ++i)
        run.start(QStringLiteral("team desk %1").arg(i),
                  {QStringLiteral("--config"), config, QStringLiteral("--db"), teamStore},
                  home(QStringLiteral("team"), i));
    const Run::Figures team = run.measure(simulator, seconds);
    run.stopAll();

    for (int i = 0; i < desks; ++i) {
        const QString store = dir.filePath(QStringLiteral("standalone-%1.db").arg(i));
        track(binary, config, store, ids);
        run.start(QStringLiteral("standalone desk %1").arg(i),
                  {QStringLiteral("--config"), config, QStringLiteral("--db"), store},
                  home(QStringLiteral("standalone"), i));
    }
    const Run::Figures standalone = run.measure(simulator, seconds);
    run.stopAll();

    std::printf("\n| setup | provider requests / min | of which getSignatureStatuses | CPU: "
                "collector | CPU: desks |\n|---|---:|---:|---:|---|\n");
    const auto row = [](const char* setup, const Run::Figures& figures, bool collector) {
        const QList<double> deskCpu = figures.cpuPercent.mid(collector ? 1 : 0);
        std::printf("| %s | %.0f | %.0f | %s | %s |\n", setup, figures.requestsPerMinute,
                    figures.statusCallsPerMinute,
                    collector ? qPrintable(QStringLiteral("%1 %").arg(figures.cpuPercent.value(0),
                                                                      0, 'f', 1))
                              : "–",
                    qPrintable(describeCpu(deskCpu)));
    };
    row("collector alone", alone, true);
    row(qPrintable(QStringLiteral("collector + %1 viewer desks (PostgreSQL)").arg(desks)), team,
        true);
    row(qPrintable(QStringLiteral("%1 standalone desks (SQLite each)").arg(desks)), standalone,
        false);
    std::printf("\n");
    // Within 5 %: the collector's probe and poll timers drift against the count's window.
    const double ratio = team.requestsPerMinute / alone.requestsPerMinute;
    bench::printFloorRow(
        QStringLiteral("provider requests per minute, collector + %1 viewer desks").arg(desks),
        QString::number(team.requestsPerMinute, 'f', 0),
        QStringLiteral("collector alone %1").arg(alone.requestsPerMinute, 0, 'f', 0), ratio,
        QStringLiteral("≤ 1.0× (within 5 %)"), ratio <= 1.05);
    std::printf("standalone desks ask %.1f times as much as the team\n",
                standalone.requestsPerMinute / team.requestsPerMinute);
    return 0;
}
