// Writes the fuzzers' seed corpora from the signed vectors in tests/fixtures: one file per vector
// and target.
//   fuzz_make_seeds FIXTURES_DIR OUT_DIR

#include "chain/codec/base64.h"
#include "chain/codec/hex.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <cstdio>
#include <cstdlib>

using namespace switchyard::chain;

namespace {

QJsonArray load(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        std::fprintf(stderr, "fuzz_make_seeds: cannot read %s\n", qPrintable(path));
        std::exit(1);
    }
    return QJsonDocument::fromJson(file.readAll()).array();
}

void write(const QString& out, const char* target, const QString& name, const QByteArray& data)
{
    const QString dir = out + QLatin1Char('/') + QLatin1String(target);
    QDir().mkpath(dir);
    QFile file(dir + QLatin1Char('/') + name);
    if (!file.open(QIODevice::WriteOnly) || file.write(data) != data.size()) {
        std::fprintf(stderr, "fuzz_make_seeds: cannot write %s\n", qPrintable(file.fileName()));
        std::exit(1);
    }
}

} // namespace

int main(int argc, char* argv[])
{
    if (argc != 3) {
        std::fprintf(stderr, "usage: fuzz_make_seeds FIXTURES_DIR OUT_DIR\n");
        return 2;
    }
    const QString fixtures = QString::fromLocal8Bit(argv[1]);
    const QString out = QString::fromLocal8Bit(argv[2]);

    const QJsonArray solana = load(fixtures + QStringLiteral("/solana-wire-transactions.json"));
    for (qsizetype i = 0; i < solana.size(); ++i) {
        const QJsonObject vector = solana[i].toObject();
        const QString wire = vector[QLatin1String("wireBase64")].toString();
        const auto bytes = base64Decode(wire);
        if (!bytes) {
            std::fprintf(stderr, "fuzz_make_seeds: %s\n", qPrintable(bytes.error().message));
            return 1;
        }
        const QString n = QString::number(i);
        write(out, "fuzz_solana", QStringLiteral("solana-") + n, *bytes);
        write(out, "fuzz_base64", QStringLiteral("solana-") + n, wire.toLatin1());
        for (const char* field : {"signature", "recentBlockhash", "feePayer"}) {
            write(out, "fuzz_base58", QLatin1String(field) + QLatin1Char('-') + n,
                  vector[QLatin1String(field)].toString().toLatin1());
        }
    }

    const QJsonArray evm = load(fixtures + QStringLiteral("/evm-raw-transactions.json"));
    for (qsizetype i = 0; i < evm.size(); ++i) {
        const QString raw = evm[i].toObject()[QLatin1String("raw")].toString();
        const auto bytes = hexDecode(raw);
        if (!bytes || bytes->isEmpty()) {
            std::fprintf(stderr, "fuzz_make_seeds: fixture %lld is not hex\n",
                         static_cast<long long>(i));
            return 1;
        }
        const QString n = QString::number(i);
        write(out, "fuzz_evm", QStringLiteral("evm-") + n, *bytes);
        // The RLP body, without the type byte of a typed transaction.
        write(out, "fuzz_rlp", QStringLiteral("evm-") + n,
              static_cast<quint8>(bytes->at(0)) >= 0xc0 ? *bytes : bytes->mid(1));
        write(out, "fuzz_base64", QStringLiteral("hex-") + n, raw.toLatin1());
    }
    return 0;
}
