#pragma once

// A real Ethereum node for the tests: anvil on 127.0.0.1, on a port the system picks, with
// mining paused so each test mines by hand. It is killed when the object goes, and with the
// test process if that dies first.

#include "rpc/jsonrpcclient.h"

#include <QDeadlineTimer>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QThread>
#include <memory>
#include <optional>
#include <qcorotask.h>
#include <signal.h>
#include <sys/prctl.h>

namespace switchyard::testing {

// anvil's chain id, and the first of its default dev accounts ("test test … junk"). The key is
// public test material: anvil prints it on every start.
inline constexpr quint64 kAnvilChainId = 31337;
inline const QString kAnvilAccount0 = QStringLiteral("0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266");
inline QByteArray anvilAccount0Key()
{
    return QByteArray::fromHex("ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80");
}

inline std::optional<qint64> parseQuantity(const QJsonValue& value)
{
    const QString text = value.toString();
    if (!text.startsWith(QLatin1String("0x")))
        return std::nullopt;
    bool ok = false;
    const qint64 number = text.mid(2).toLongLong(&ok, 16);
    return ok ? std::optional<qint64>(number) : std::nullopt;
}

inline QString quantity(qint64 number)
{
    return QStringLiteral("0x") + QString::number(number, 16);
}

class AnvilNode
{
public:
    explicit AnvilNode(QString program = QStringLiteral(SWITCHYARD_ANVIL))
        : m_program(std::move(program))
    {}

    ~AnvilNode()
    {
        m_client.reset();
        if (m_process.state() != QProcess::NotRunning) {
            m_process.kill();
            m_process.waitForFinished(5000);
        }
    }

    AnvilNode(const AnvilNode&) = delete;
    AnvilNode& operator=(const AnvilNode&) = delete;

    // Starts the node (with `extraArguments` after the usual ones) and waits until it answers
    // eth_chainId with 31337. Returns what went wrong, empty when it serves.
    QString start(const QStringList& extraArguments = {})
    {
        const QFileInfo binary(m_program);
        if (!binary.isFile() || !binary.isExecutable())
            return QStringLiteral("anvil not found at %1: run installer/dev (it installs the "
                                  "pinned @foundry-rs/anvil-linux-amd64 into tests/anvil) or set "
                                  "SWITCHYARD_ANVIL")
                .arg(m_program);
        m_process.setProgram(m_program);
        m_process.setArguments(
            QStringList{QStringLiteral("--host"), QStringLiteral("127.0.0.1"),
                        QStringLiteral("--port"), QStringLiteral("0"), QStringLiteral("--chain-id"),
                        QString::number(kAnvilChainId), QStringLiteral("--no-mining")} +
            extraArguments);
        m_process.setProcessChannelMode(QProcess::MergedChannels);
        m_process.setChildProcessModifier([] { ::prctl(PR_SET_PDEATHSIG, SIGKILL); });
        m_process.start();
        if (!m_process.waitForStarted(10'000))
            return QStringLiteral("anvil at %1 did not start: %2")
                .arg(m_program, m_process.errorString());

        // "Listening on 127.0.0.1:PORT" comes once the socket is bound.
        static const QRegularExpression listening(
            QStringLiteral("Listening on 127\\.0\\.0\\.1:(\\d+)"));
        const QDeadlineTimer deadline(20'000);
        QRegularExpressionMatch match;
        while (!(match = listening.match(QString::fromUtf8(m_output))).hasMatch()) {
            if (deadline.hasExpired() || m_process.state() == QProcess::NotRunning)
                return QStringLiteral("anvil did not report its port: %1")
                    .arg(QString::fromUtf8(m_output.right(2000)));
            m_process.waitForReadyRead(int(qMax<qint64>(1, deadline.remainingTime())));
            m_output += m_process.readAll();
        }
        m_url = QUrl(QStringLiteral("http://127.0.0.1:%1/").arg(match.captured(1)));
        m_client =
            std::make_unique<JsonRpcClient>(QStringLiteral("anvil"), m_url, QList<HttpHeader>{});

        QString last;
        while (!deadline.hasExpired()) {
            const RpcReply reply = call(QStringLiteral("eth_chainId"), {});
            if (reply.isResult() && parseQuantity(reply.result()) == qint64(kAnvilChainId))
                return {};
            last = reply.describe();
            QThread::msleep(50); // a separate process getting ready, not this one's events
        }
        return QStringLiteral("anvil at %1 did not answer eth_chainId 31337: %2")
            .arg(m_url.toString(), last);
    }

    const QUrl& url() const { return m_url; }
    qint64 processId() const { return m_process.processId(); }
    // Everything anvil printed so far (its log of calls): for failure messages.
    QString output()
    {
        m_output += m_process.readAll();
        return QString::fromUtf8(m_output);
    }

    RpcReply call(const QString& method, const QJsonArray& params, bool mayRepeat = true)
    {
        RpcRequest request;
        request.method = method;
        request.params = params;
        request.mayRepeat = mayRepeat;
        return QCoro::waitFor(m_client->call(std::move(request), QDeadlineTimer(10'000)));
    }

    // One POST, as a transaction send must be.
    RpcReply sendRawTransaction(const QString& rawHex)
    {
        return call(QStringLiteral("eth_sendRawTransaction"), {rawHex}, false);
    }

    // The helpers below answer nullopt on anything but a result, and keep why in lastError().
    std::optional<QJsonValue> result(const QString& method, const QJsonArray& params)
    {
        const RpcReply reply = call(method, params);
        if (!reply.isResult()) {
            m_lastError = method + QStringLiteral(": ") + reply.describe();
            return std::nullopt;
        }
        return reply.result();
    }

    bool mine() { return result(QStringLiteral("evm_mine"), {}).has_value(); }
    // One block with this timestamp (seconds): nodes started with the same --timestamp that mine
    // the same empty blocks at the same timestamps serve the same hashes.
    bool mineAt(qint64 timestamp)
    {
        return result(QStringLiteral("evm_mine"), {timestamp}).has_value();
    }

    // evm_snapshot: an id to go back to this block with revert().
    std::optional<QString> snapshot()
    {
        const std::optional<QJsonValue> id = result(QStringLiteral("evm_snapshot"), {});
        return id ? std::optional<QString>(id->toString()) : std::nullopt;
    }
    // evm_revert: the chain as it was at the snapshot, the blocks mined since gone.
    bool revert(const QString& snapshotId)
    {
        const std::optional<QJsonValue> reverted =
            result(QStringLiteral("evm_revert"), {snapshotId});
        return reverted && reverted->toBool();
    }

    // The hash of block `number`, empty when the node has none.
    QString blockHash(qint64 number)
    {
        const std::optional<QJsonValue> block =
            result(QStringLiteral("eth_getBlockByNumber"), {quantity(number), false});
        return block ? block->toObject().value(QLatin1String("hash")).toString() : QString();
    }

    bool dropTransaction(const QString& hash)
    {
        return result(QStringLiteral("anvil_dropTransaction"), {hash}).has_value();
    }

    std::optional<qint64> blockNumber()
    {
        return quantityResult(QStringLiteral("eth_blockNumber"), {});
    }

    std::optional<qint64> transactionCount(const QString& address,
                                           const QString& block = QStringLiteral("latest"))
    {
        return quantityResult(QStringLiteral("eth_getTransactionCount"), {address, block});
    }

    // The receipt object, or a JSON null when the node has none.
    std::optional<QJsonValue> receipt(const QString& hash)
    {
        return result(QStringLiteral("eth_getTransactionReceipt"), {hash});
    }

    // The hashes of the transactions mined in every block from 1 to the head, in order.
    std::optional<QStringList> minedTransactions()
    {
        const std::optional<qint64> head = blockNumber();
        if (!head)
            return std::nullopt;
        QStringList hashes;
        for (qint64 block = 1; block <= *head; ++block) {
            const auto found =
                result(QStringLiteral("eth_getBlockByNumber"), {quantity(block), false});
            if (!found)
                return std::nullopt;
            for (const QJsonValue hash :
                 found->toObject().value(QLatin1String("transactions")).toArray())
                hashes.append(hash.toString());
        }
        return hashes;
    }

    const QString& lastError() const { return m_lastError; }

private:
    std::optional<qint64> quantityResult(const QString& method, const QJsonArray& params)
    {
        const std::optional<QJsonValue> value = result(method, params);
        if (!value)
            return std::nullopt;
        const std::optional<qint64> number = parseQuantity(*value);
        if (!number)
            m_lastError = method + QStringLiteral(": not a quantity: ") + value->toString();
        return number;
    }

    QString m_program;
    QProcess m_process;
    QByteArray m_output;
    QUrl m_url;
    std::unique_ptr<JsonRpcClient> m_client;
    QString m_lastError;
};

} // namespace switchyard::testing
