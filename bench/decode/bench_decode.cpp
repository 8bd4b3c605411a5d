// Decoding throughput on the shared fixtures, in the same terms as decode/peers.mjs: from the
// text a user pastes (base64 / 0x hex) to the transaction id, with and without the signature
// work (Solana: every ed25519 signature verified; EVM: sender recovered and checksummed).
// Prints one "MODE TX_PER_SECOND" line per mode; `bench_decode --context` prints how it was
// built, the machine's load and the libraries' versions instead.

#include "benchcontext.h"
#include "chain/codec/base64.h"
#include "chain/codec/hex.h"
#include "chain/evm/evmtransaction.h"
#include "chain/solana/solanatransaction.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <cstdio>
#include <functional>
#include <sodium.h>

using namespace switchyard::chain;

namespace {

QStringList fixtureField(const QString& path, const char* field)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        std::fprintf(stderr, "bench_decode: cannot read %s\n", qPrintable(path));
        std::exit(2);
    }
    QStringList values;
    for (const auto& value : QJsonDocument::fromJson(file.readAll()).array())
        values << value.toObject()[QLatin1String(field)].toString();
    return values;
}

// Runs `decodeOne` over the inputs round-robin for about `seconds`; returns transactions/s.
double measure(const QStringList& inputs, double seconds,
               const std::function<qsizetype(const QString&)>& decodeOne)
{
    qsizetype sink = 0;
    for (const QString& input : inputs) // warm-up, and a check that every input decodes
        if (decodeOne(input) <= 0) {
            std::fprintf(stderr, "bench_decode: a fixture does not decode\n");
            std::exit(1);
        }
    QElapsedTimer timer;
    timer.start();
    qint64 count = 0;
    const qint64 budgetNs = static_cast<qint64>(seconds * 1e9);
    while (timer.nsecsElapsed() < budgetNs) {
        for (const QString& input : inputs)
            sink += decodeOne(input);
        count += inputs.size();
    }
    const double elapsed = static_cast<double>(timer.nsecsElapsed()) / 1e9;
    if (sink == 0)
        std::fprintf(stderr, "bench_decode: nothing decoded\n");
    return static_cast<double>(count) / elapsed;
}

qsizetype solanaDecode(const QString& text, bool verify)
{
    const auto bytes = base64Decode(text);
    if (!bytes)
        return 0;
    const auto tx = solana::decodeTransaction(*bytes);
    if (!tx)
        return 0;
    qsizetype result = tx->id().size() + tx->feePayer().size();
    if (verify)
        result *= solana::allSignaturesValid(*tx) ? 1 : 0;
    return result;
}

qsizetype evmDecode(const QString& text, bool recover)
{
    const auto bytes = hexDecode(text);
    if (!bytes)
        return 0;
    const auto tx = evm::decodeTransaction(*bytes);
    if (!tx)
        return 0;
    qsizetype result = tx->id().size();
    if (recover) {
        const auto sender = evm::recoverSender(*tx);
        result = sender ? result + evm::checksumAddress(*sender).size() : 0;
    }
    return result;
}

} // namespace

int main(int argc, char* argv[])
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: bench_decode FIXTURES_DIR [SECONDS_PER_MODE] | --context\n");
        return 2;
    }
    if (QByteArray(argv[1]) == "--context") {
        switchyard::bench::printContext(
            {{"libsodium", QString::fromLatin1(sodium_version_string())},
             {"libsecp256k1 (pkg-config)", QStringLiteral(SWITCHYARD_SECP256K1_VERSION)}});
        return 0;
    }
    const QString dir = QString::fromLocal8Bit(argv[1]);
    const double seconds = argc > 2 ? std::atof(argv[2]) : 3.0;
    const QStringList solanaInputs =
        fixtureField(dir + QStringLiteral("/solana-wire-transactions.json"), "wireBase64");
    const QStringList evmInputs =
        fixtureField(dir + QStringLiteral("/evm-raw-transactions.json"), "raw");

    const auto report = [](const char* mode, double perSecond) {
        std::printf("%s %.0f\n", mode, perSecond);
        std::fflush(stdout);
    };
    report("solana-decode",
           measure(solanaInputs, seconds, [](const QString& t) { return solanaDecode(t, false); }));
    report("solana-verify",
           measure(solanaInputs, seconds, [](const QString& t) { return solanaDecode(t, true); }));
    report("evm-decode",
           measure(evmInputs, seconds, [](const QString& t) { return evmDecode(t, false); }));
    report("evm-recover",
           measure(evmInputs, seconds, [](const QString& t) { return evmDecode(t, true); }));
    return 0;
}
