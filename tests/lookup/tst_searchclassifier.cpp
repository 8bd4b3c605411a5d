// What the search box makes of pasted text.
#include "chain/codec/base58.h"
#include "lookup/searchclassifier.h"

#include <QTest>

using namespace switchyard;

Q_DECLARE_METATYPE(switchyard::SearchKind)

namespace {

// A real signature from shared/fixtures (the first Solana vector).
const QString kSignature = QStringLiteral(
    "2ZigDXwqDK1rLcKJoyyJzvYHXjtZtRpdpcv3BgTptd77rZYe6j5gajcxHsX4NK1JiBLkDjbxYyrFw7kb6HTyqou1");
const QString kHash =
    QStringLiteral("0xe4d7aec036634a354575cdbd4fa3c4b0991c5e7ee492ec677cedc2f921c1d620");

NodeConfig namedNode(const QString& name)
{
    NodeConfig node;
    node.name = name;
    return node;
}

Config twoNetworks()
{
    NetworkConfig solana;
    solana.name = QStringLiteral("mainnet");
    solana.nodes = {namedNode(QStringLiteral("helius")), namedNode(QStringLiteral("Triton"))};
    NetworkConfig evm;
    evm.name = QStringLiteral("ethereum");
    evm.family = ChainFamily::Evm;
    evm.nodes = {namedNode(QStringLiteral("infura")), namedNode(QStringLiteral("triton"))};
    Config config;
    config.networks = {solana, evm};
    return config;
}

QString base58OfBytes(int size)
{
    QByteArray bytes(size, '\x5a');
    bytes[0] = '\x9c';
    return chain::base58Encode(bytes);
}

} // namespace

class TestSearchClassifier : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void classify_data()
    {
        QTest::addColumn<QString>("input");
        QTest::addColumn<SearchKind>("kind");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("network");
        QTest::addColumn<QString>("node");
        QTest::addColumn<QString>("family");

        QTest::newRow("signature") << kSignature << SearchKind::TransactionId << kSignature << ""
                                   << ""
                                   << "solana";
        QTest::newRow("signature with spaces around")
            << "  " + kSignature + "\n"
            << SearchKind::TransactionId << kSignature << ""
            << ""
            << "solana";
        QTest::newRow("64 bytes") << base58OfBytes(64) << SearchKind::TransactionId
                                  << base58OfBytes(64) << ""
                                  << ""
                                  << "solana";
        QTest::newRow("63 bytes") << base58OfBytes(63) << SearchKind::Text << base58OfBytes(63)
                                  << ""
                                  << ""
                                  << "";
        QTest::newRow("65 bytes") << base58OfBytes(65) << SearchKind::Text << base58OfBytes(65)
                                  << ""
                                  << ""
                                  << "";
        QTest::newRow("signature with a 0 (not base58)")
            << "0" + kSignature.mid(1) << SearchKind::Text << "0" + kSignature.mid(1) << ""
            << ""
            << "";
        QTest::newRow("signature with a space inside")
            << kSignature.left(40) + " " + kSignature.mid(40) << SearchKind::Text
            << kSignature.left(40) + " " + kSignature.mid(40) << ""
            << ""
            << "";

        QTest::newRow("hash") << kHash << SearchKind::TransactionId << kHash << ""
                              << ""
                              << "evm";
        QTest::newRow("hash in upper case")
            << "0X" + kHash.mid(2).toUpper() << SearchKind::TransactionId << kHash << ""
            << ""
            << "evm";
        QTest::newRow("hash in mixed case") << "0x" + kHash.mid(2, 10).toUpper() + kHash.mid(12)
                                            << SearchKind::TransactionId << kHash << ""
                                            << ""
                                            << "evm";
        QTest::newRow("hash with tabs around")
            << "\t" + kHash + " " << SearchKind::TransactionId << kHash << ""
            << ""
            << "evm";
        QTest::newRow("0x + 63 hex") << kHash.left(65) << SearchKind::Text << kHash.left(65) << ""
                                     << ""
                                     << "";
        QTest::newRow("0x + 65 hex") << kHash + "0" << SearchKind::Text << kHash + "0"
                                     << ""
                                     << ""
                                     << "";
        QTest::newRow("64 hex without 0x") << kHash.mid(2) << SearchKind::Text << kHash.mid(2) << ""
                                           << ""
                                           << "";
        QTest::newRow("0x + 64 with a g")
            << kHash.left(65) + "g" << SearchKind::Text << kHash.left(65) + "g"
            << ""
            << ""
            << "";

        QTest::newRow("known intent") << " order-42 " << SearchKind::IntentId << "order-42"
                                      << ""
                                      << ""
                                      << "";
        QTest::newRow("unknown intent") << "order-43" << SearchKind::Text << "order-43"
                                        << ""
                                        << ""
                                        << "";
        QTest::newRow("node") << "helius" << SearchKind::NodeName << "helius"
                              << "mainnet"
                              << "helius"
                              << "";
        QTest::newRow("node, other case, one match") << "INFURA" << SearchKind::NodeName << "INFURA"
                                                     << "ethereum"
                                                     << "infura"
                                                     << "";
        QTest::newRow("node, exact among two ignoring case")
            << "triton" << SearchKind::NodeName << "triton"
            << "ethereum"
            << "triton"
            << "";
        QTest::newRow("node, ambiguous ignoring case") << "TRITON" << SearchKind::Text << "TRITON"
                                                       << ""
                                                       << ""
                                                       << "";
        QTest::newRow("empty") << "   " << SearchKind::Text << ""
                               << ""
                               << ""
                               << "";
        QTest::newRow("text") << " stuck payment " << SearchKind::Text << "stuck payment"
                              << ""
                              << ""
                              << "";
    }

    void classify()
    {
        QFETCH(QString, input);
        QFETCH(SearchKind, kind);
        QFETCH(QString, text);
        QFETCH(QString, network);
        QFETCH(QString, node);
        QFETCH(QString, family);
        const SearchClassification result =
            classifySearch(input, twoNetworks(),
                           [](const QString& id) { return id == QLatin1String("order-42"); });
        QCOMPARE(searchKindKey(result.kind), searchKindKey(kind));
        QCOMPARE(result.text, text);
        QCOMPARE(result.network, network);
        QCOMPARE(result.node, node);
        if (result.kind == SearchKind::TransactionId)
            QCOMPARE(familyName(result.family), family);
    }

    void noPredicateMeansNoIntents()
    {
        QCOMPARE(classifySearch(QStringLiteral("order-42"), twoNetworks()).kind, SearchKind::Text);
    }
};

QTEST_GUILESS_MAIN(TestSearchClassifier)
#include "tst_searchclassifier.moc"
