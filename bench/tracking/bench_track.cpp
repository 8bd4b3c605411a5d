// `switchyard track` of signed Solana transactions from a file, against its floor:
//   bench_track [COUNT] [RUNS]
// COUNT transfers (10,000 by default) are signed with the demo's signer and written as JSON
// lines (wireBase64, lastValidBlockHeight) and as bare base64 lines. The floor is this process
// reading the JSON lines file and decoding and verifying every transaction (base64, the wire
// format, every ed25519 signature): what tracking cannot do without. Then the switchyard
// executable tracks the file into a new store, RUNS times (3 by default): wall time from start
// to exit (read, decode, verify, store, print) and its CPU time. Last, the bare lines once:
// their output and how many notes they drew on standard error.
#include "benchcontext.h"
#include "chain/codec/base58.h"
#include "chain/codec/base64.h"
#include "chain/codec/signedtransaction.h"
#include "sim/demosigner.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <algorithm>
#include <cstdio>
#include <sys/resource.h>

using namespace switchyard;

namespace {

struct Run
{
    double wallMs = 0;
    double cpuMs = 0;
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

double childrenCpuMs()
{
    rusage usage{};
    getrusage(RUSAGE_CHILDREN, &usage);
    const auto ms = [](const timeval& t) {
        return double(t.tv_sec) * 1e3 + double(t.tv_usec) / 1e3;
    };
    return ms(usage.ru_utime) + ms(usage.ru_stime);
}

bool writeFile(const QString& path, const QByteArray& contents)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(contents) == contents.size();
}

// Reads the file and decodes and verifies every line's transaction; the count that verified.
int decodeAndVerify(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return -1;
    const QByteArray all = file.readAll();
    int verified = 0;
    for (const QByteArray& line : all.split('\n')) {
        const qsizetype start = line.indexOf("\"wireBase64\":\"");
        if (start < 0)
            continue;
        const qsizetype from = start + 14;
        const qsizetype end = line.indexOf('"', from);
        const auto bytes = chain::base64Decode(QString::fromLatin1(line.sliced(from, end - from)));
        if (bytes && chain::verifySignedTransaction(ChainFamily::Solana, *bytes))
            ++verified;
    }
    return verified;
}

Run track(const QString& input, const QString& config, const QString& db)
{
    QProcess process;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    process.setProcessEnvironment(environment);
    Run run;
    const double cpuBefore = childrenCpuMs();
    QElapsedTimer wall;
    wall.start();
    process.start(QStringLiteral(SWITCHYARD_BINARY),
                  {QStringLiteral("track"), input, QStringLiteral("--config"), config,
                   QStringLiteral("--db"), db});
    process.waitForFinished(120'000);
    run.wallMs = double(wall.nsecsElapsed()) / 1e6;
    // QProcess reaped the child: its CPU time is in this process's children's now.
    run.cpuMs = childrenCpuMs() - cpuBefore;
    run.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    run.out = process.readAllStandardOutput();
    run.err = process.readAllStandardError();
    return run;
}

double median(QList<double> values)
{
    std::sort(values.begin(), values.end());
    return values.isEmpty() ? 0 : values[values.size() / 2];
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    const int count = argc > 1 ? std::max(1, atoi(argv[1])) : 10'000;
    const int runs = argc > 2 ? std::max(1, atoi(argv[2])) : 3;
    bench::printContext({{"switchyard", QStringLiteral(SWITCHYARD_BINARY)}});

    QTemporaryDir dir;
    const QString network = QStringLiteral("bench");
    const QJsonObject node{{QStringLiteral("name"), QStringLiteral("a")},
                           {QStringLiteral("url"), QStringLiteral("http://127.0.0.1:9/")}};
    const QString config = dir.filePath(QStringLiteral("config.json"));
    writeFile(config,
              QJsonDocument(
                  QJsonObject{{QStringLiteral("networks"),
                               QJsonArray{QJsonObject{
                                   {QStringLiteral("name"), network},
                                   {QStringLiteral("family"), QStringLiteral("solana")},
                                   {QStringLiteral("genesisHash"),
                                    QStringLiteral("EtWTRABZaYq6iMfeYKouRu166VU2xqa1wcaWoxPkrZBG")},
                                   {QStringLiteral("nodes"), QJsonArray{node}}}}}})
                  .toJson());

    QElapsedTimer signing;
    signing.start();
    const QByteArray seed = sim::demoKey(1);
    const QString blockhash = chain::base58Encode(QByteArray(32, '\x07'));
    QByteArray jsonLines;
    QByteArray bareLines;
    for (int i = 0; i < count; ++i) {
        const QByteArray wire = sim::signSolanaTransfer(seed, blockhash, quint64(i) + 1);
        const QByteArray base64 = chain::base64Encode(chain::asSpan(wire)).toLatin1();
        jsonLines += "{\"network\":\"bench\",\"wireBase64\":\"" + base64 +
                     "\",\"lastValidBlockHeight\":" + QByteArray::number(1000 + i) + "}\n";
        bareLines += base64 + '\n';
    }
    const QString jsonPath = dir.filePath(QStringLiteral("transactions.jsonl"));
    const QString barePath = dir.filePath(QStringLiteral("transactions.txt"));
    writeFile(jsonPath, jsonLines);
    writeFile(barePath, bareLines);
    std::printf("%d signed transfers written in %.0f ms (%lld bytes of JSON lines)\n\n", count,
                double(signing.elapsed()), static_cast<long long>(jsonLines.size()));

    QList<double> floorMs;
    for (int i = 0; i < runs; ++i) {
        QElapsedTimer timer;
        timer.start();
        const int verified = decodeAndVerify(jsonPath);
        floorMs.append(double(timer.nsecsElapsed()) / 1e6);
        if (verified != count) {
            std::fprintf(stderr, "bench_track: %d of %d verified\n", verified, count);
            return 1;
        }
    }

    QList<double> wallMs;
    QList<double> cpuMs;
    for (int i = 0; i < runs; ++i) {
        const Run run = track(jsonPath, config, dir.filePath(QStringLiteral("store-%1.db").arg(i)));
        const qsizetype added = run.out.count(" added\n");
        if (run.exitCode != 0 || added != count) {
            std::fprintf(stderr, "bench_track: exit %d, %lld added:\n%s\n", run.exitCode,
                         static_cast<long long>(added), run.err.constData());
            return 1;
        }
        wallMs.append(run.wallMs);
        cpuMs.append(run.cpuMs);
    }

    const double floor = median(floorMs);
    const double ours = median(wallMs);
    std::printf("%-44s %10s %10s\n", "", "wall ms", "cpu ms");
    std::printf("%-44s %10.0f %10s\n", "floor: read, decode, verify (in process)", floor, "");
    std::printf("%-44s %10.0f %10.0f\n", "switchyard track (new store, median)", ours,
                median(cpuMs));
    std::printf("runs: floor");
    for (double ms : std::as_const(floorMs))
        std::printf(" %.0f", ms);
    std::printf(", track");
    for (double ms : std::as_const(wallMs))
        std::printf(" %.0f", ms);
    std::printf(" ms\ntrack / floor: %.2fx; track of %d: %s 1.0 s\n\n", ours / floor, count,
                ours <= 1000 ? "within" : "OVER");
    bench::printFloorRow(
        QStringLiteral("switchyard track of %1 signed transactions from a file (median of %2)")
            .arg(count)
            .arg(runs),
        QStringLiteral("%1 ms").arg(ours, 0, 'f', 0),
        QStringLiteral("read, decode, verify in process, one thread %1 ms").arg(floor, 0, 'f', 0),
        ours / floor, QStringLiteral("≤ 1,000 ms"), ours <= 1000);

    const Run bare = track(barePath, config, dir.filePath(QStringLiteral("store-bare.db")));
    const qsizetype notes = bare.err.count("note:");
    std::printf("bare base64 lines: exit %d, %lld added, %.0f ms, %lld note(s) on stderr:\n%s",
                bare.exitCode, static_cast<long long>(bare.out.count(" added\n")), bare.wallMs,
                static_cast<long long>(notes), bare.err.left(400).constData());
    return bare.exitCode == 0 && notes == 1 ? 0 : 1;
}
