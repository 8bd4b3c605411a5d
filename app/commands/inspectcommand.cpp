#include "chain/codec/base58.h"
#include "chain/evm/evmtransaction.h"
#include "chain/family.h"
#include "chain/solana/solanatransaction.h"
#include "chain/transactiontext.h"
#include "commonoptions.h"
#include "subcommand.h"
#include "util/readtoend.h"

#include <QCommandLineParser>
#include <QFile>
#include <cstdio>
#include <optional>
#include <unistd.h>

namespace switchyard::cli {

namespace {

using namespace switchyard::chain;

// Far above any transaction in text form (128 KiB of EVM bytes is 256 KiB of hex);
// resources/docs/inspect.md gives it.
constexpr qint64 kMaxInputSize = 4 * 1024 * 1024;

// One JSON object on one line, keys in the order they are written (QJsonObject would sort
// them), and 64-bit integers written exactly.
class JsonLine
{
public:
    JsonLine& key(const char* name)
    {
        m_out += m_first ? "{" : ",";
        m_first = false;
        appendString(QString::fromLatin1(name));
        m_out += ':';
        return *this;
    }
    void string(const QString& value) { appendString(value); }
    void number(quint64 value) { m_out += QByteArray::number(value); }
    void null() { m_out += "null"; }
    void strings(const QList<QString>& values)
    {
        m_out += '[';
        for (qsizetype i = 0; i < values.size(); ++i) {
            if (i > 0)
                m_out += ',';
            appendString(values[i]);
        }
        m_out += ']';
    }
    void booleans(const QList<bool>& values)
    {
        m_out += '[';
        for (qsizetype i = 0; i < values.size(); ++i) {
            if (i > 0)
                m_out += ',';
            m_out += values[i] ? "true" : "false";
        }
        m_out += ']';
    }
    QByteArray finish() { return m_out + (m_first ? "{}" : "}"); }

private:
    void appendString(const QString& value)
    {
        m_out += '"';
        for (const char c : value.toUtf8()) {
            if (c == '"' || c == '\\') {
                m_out += '\\';
                m_out += c;
            } else if (static_cast<unsigned char>(c) < 0x20) {
                m_out += "\\u00";
                m_out +=
                    QByteArray::number(static_cast<unsigned char>(c), 16).rightJustified(2, '0');
            } else {
                m_out += c;
            }
        }
        m_out += '"';
    }

    QByteArray m_out;
    bool m_first = true;
};

void printLine(const QByteArray& line)
{
    std::fwrite(line.constData(), 1, static_cast<std::size_t>(line.size()), stdout);
    std::fputc('\n', stdout);
}

struct InputText
{
    QString text;
    QString error;
};

// INPUT as given, or the contents of @FILE or of standard input ("-") read to their end, trimmed.
InputText readInput(const QString& argument)
{
    if (argument != QLatin1String("-") && !argument.startsWith(QLatin1Char('@')))
        return {argument.trimmed(), {}};
    ReadToEnd read;
    if (argument == QLatin1String("-")) {
        read = readToEnd(STDIN_FILENO, QStringLiteral("standard input"), kMaxInputSize);
    } else {
        const QString name = argument.mid(1);
        QFile file(name);
        if (!file.open(QIODevice::ReadOnly | QIODevice::Unbuffered))
            return {{}, QStringLiteral("cannot read %1: %2").arg(name, file.errorString())};
        read = readToEnd(file.handle(), name, kMaxInputSize);
    }
    if (!read.ok())
        return {{},
                read.tooLarge ? read.error + QStringLiteral(", more than any transaction")
                              : read.error};
    return {QString::fromUtf8(read.data).trimmed(), {}};
}

QString describeKeyRole(const solana::Transaction& tx, qsizetype index)
{
    const qsizetype keys = tx.accountKeys.size();
    const bool signer = index < tx.numRequiredSignatures;
    const bool writable = signer ? index < tx.numRequiredSignatures - tx.numReadonlySignedAccounts
                                 : index < keys - tx.numReadonlyUnsignedAccounts;
    QStringList roles;
    if (index == 0)
        roles << QStringLiteral("fee payer");
    if (signer)
        roles << QStringLiteral("signer");
    roles << (writable ? QStringLiteral("writable") : QStringLiteral("read-only"));
    return roles.join(QLatin1String(", "));
}

int printSolana(const QByteArray& bytes, bool text)
{
    const auto decoded = solana::decodeTransaction(bytes);
    if (!decoded)
        return fail(ExitUsage, QStringLiteral("solana: ") + decoded.error().message);
    const solana::Transaction& tx = *decoded;
    const QList<bool> valid = solana::verifySignatures(tx);
    QList<QString> signatures;
    for (const QByteArray& signature : tx.signatures)
        signatures << base58Encode(signature);
    QList<QString> keys;
    for (const QByteArray& key : tx.accountKeys)
        keys << base58Encode(key);

    if (!text) {
        JsonLine json;
        json.key("family").string(QStringLiteral("solana"));
        json.key("id").string(tx.id());
        json.key("signatures").strings(signatures);
        json.key("signaturesValid").booleans(valid);
        json.key("version").string(tx.versionName());
        json.key("recentBlockhash").string(base58Encode(tx.recentBlockhash));
        json.key("feePayer").string(tx.feePayer());
        json.key("accountKeys").strings(keys);
        json.key("instructions").number(static_cast<quint64>(tx.instructions.size()));
        json.key("addressTableLookups").number(static_cast<quint64>(tx.addressTableLookups.size()));
        json.key("size").number(static_cast<quint64>(tx.size));
        printLine(json.finish());
        return ExitOk;
    }

    const qsizetype validCount = valid.count(true);
    QStringList lines;
    lines << QStringLiteral("Solana transaction, %1 message, %2 bytes")
                 .arg(tx.version == solana::MessageVersion::Legacy ? QStringLiteral("legacy")
                                                                   : QStringLiteral("v0"))
                 .arg(tx.size);
    lines << QStringLiteral("  id                %1").arg(tx.id());
    lines << QStringLiteral("  fee payer         %1").arg(tx.feePayer());
    lines << QStringLiteral("  recent blockhash  %1").arg(base58Encode(tx.recentBlockhash));
    lines << QStringLiteral("  signatures        %1 of %2 valid%3")
                 .arg(validCount)
                 .arg(valid.size())
                 .arg(validCount == valid.size() ? QString()
                                                 : QStringLiteral(" — do not rebroadcast"));
    for (qsizetype i = 0; i < signatures.size(); ++i) {
        lines << QStringLiteral("    %1. %2  %3")
                     .arg(i + 1)
                     .arg(signatures[i])
                     .arg(valid[i] ? QStringLiteral("valid") : QStringLiteral("INVALID"));
    }
    lines << QStringLiteral("  account keys      %1").arg(keys.size());
    for (qsizetype i = 0; i < keys.size(); ++i)
        lines << QStringLiteral("    %1. %2  (%3)").arg(i).arg(keys[i], describeKeyRole(tx, i));
    lines << QStringLiteral("  instructions      %1").arg(tx.instructions.size());
    if (tx.version == solana::MessageVersion::V0)
        lines << QStringLiteral("  table lookups     %1").arg(tx.addressTableLookups.size());
    printLine(lines.join(QLatin1Char('\n')).toUtf8());
    return ExitOk;
}

int printEvm(const QByteArray& bytes, bool text)
{
    const auto decoded = evm::decodeTransaction(bytes);
    if (!decoded)
        return fail(ExitUsage, QStringLiteral("evm: ") + decoded.error().message);
    const evm::Transaction& tx = *decoded;
    const auto sender = evm::recoverSender(tx);
    if (!sender)
        return fail(ExitUsage, QStringLiteral("evm: ") + sender.error().message);
    const QString from = evm::checksumAddress(*sender);
    const QString to = tx.to ? evm::checksumAddress(*tx.to) : QString();

    if (!text) {
        JsonLine json;
        json.key("family").string(QStringLiteral("evm"));
        json.key("id").string(tx.id());
        json.key("type").number(static_cast<quint64>(tx.type));
        if (tx.chainId)
            json.key("chainId").number(*tx.chainId);
        else
            json.key("chainId").null();
        json.key("nonce").number(tx.nonce);
        json.key("from").string(from);
        if (tx.to)
            json.key("to").string(to);
        else
            json.key("to").null();
        json.key("value").string(evm::toDecimal(tx.value));
        json.key("gasLimit").number(tx.gasLimit);
        if (tx.type == 2 || tx.type == 4) {
            json.key("maxFeePerGas").string(evm::toDecimal(tx.maxFeePerGas));
            json.key("maxPriorityFeePerGas").string(evm::toDecimal(tx.maxPriorityFeePerGas));
        } else {
            json.key("gasPrice").string(evm::toDecimal(tx.gasPrice));
        }
        if (tx.type == 4)
            json.key("authorizations").number(static_cast<quint64>(tx.authorizationCount));
        json.key("dataSize").number(static_cast<quint64>(tx.data.size()));
        json.key("size").number(static_cast<quint64>(tx.size));
        printLine(json.finish());
        return ExitOk;
    }

    static const char* const kTypeNames[] = {"legacy", "EIP-2930", "EIP-1559", "EIP-4844",
                                             "EIP-7702"};
    QStringList lines;
    lines << QStringLiteral("EVM transaction, type %1 (%2), %3 bytes")
                 .arg(tx.type)
                 .arg(QLatin1String(kTypeNames[tx.type]))
                 .arg(tx.size);
    lines << QStringLiteral("  id (hash)         %1").arg(tx.id());
    lines << QStringLiteral("  chain id          %1")
                 .arg(tx.chainId ? QString::number(*tx.chainId)
                                 : QStringLiteral("none (pre-EIP-155, valid on any chain)"));
    lines << QStringLiteral("  from              %1").arg(from);
    lines << QStringLiteral("  to                %1")
                 .arg(tx.to ? to : QStringLiteral("none (creates a contract)"));
    lines << QStringLiteral("  nonce             %1").arg(tx.nonce);
    lines << QStringLiteral("  value (wei)       %1").arg(evm::toDecimal(tx.value));
    lines << QStringLiteral("  gas limit         %1").arg(tx.gasLimit);
    if (tx.type == 2 || tx.type == 4) {
        lines << QStringLiteral("  max fee (wei)     %1").arg(evm::toDecimal(tx.maxFeePerGas));
        lines << QStringLiteral("  priority fee      %1")
                     .arg(evm::toDecimal(tx.maxPriorityFeePerGas));
    } else {
        lines << QStringLiteral("  gas price (wei)   %1").arg(evm::toDecimal(tx.gasPrice));
    }
    lines << QStringLiteral("  data              %1 bytes").arg(tx.data.size());
    if (tx.type != 0)
        lines << QStringLiteral("  access list       %1 address(es)").arg(tx.accessListSize);
    if (tx.type == 4)
        lines << QStringLiteral("  authorizations    %1").arg(tx.authorizationCount);
    printLine(lines.join(QLatin1Char('\n')).toUtf8());
    return ExitOk;
}

} // namespace

// `switchyard inspect INPUT [--family F] [--text]`, registered in subcommands.cpp.
int runInspect(const QStringList& arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Decodes a signed transaction and prints it as one JSON object.\n"
                       "INPUT is base64 or base58 (Solana wire bytes), 0x-prefixed hex (an EVM raw "
                       "transaction), @FILE to read it from a file, or - for standard input."));
    parser.addPositionalArgument(QStringLiteral("INPUT"),
                                 QStringLiteral("base64, base58, 0x hex, @FILE or -"));
    const QCommandLineOption familyOption(
        QStringLiteral("family"),
        QStringLiteral("Decode as this family instead of guessing from the text: solana or evm."),
        QStringLiteral("family"));
    const QCommandLineOption textOption(QStringLiteral("text"),
                                        QStringLiteral("Print for a person instead of JSON."));
    parser.addHelpOption();
    parser.addOptions({familyOption, textOption});
    if (const std::optional<int> exit = parseCommandLine(parser, arguments, ExitUsage))
        return *exit;
    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 1) {
        return fail(ExitUsage,
                    positional.isEmpty()
                        ? QStringLiteral("inspect needs one INPUT (base64, base58, 0x hex, "
                                         "@FILE or -)")
                        : QStringLiteral("inspect takes one INPUT, got %1").arg(positional.size()));
    }

    std::optional<ChainFamily> family;
    if (parser.isSet(familyOption)) {
        family = familyFromName(parser.value(familyOption));
        if (!family) {
            return fail(ExitUsage, QStringLiteral("unknown family '%1' (expected solana or evm)")
                                       .arg(parser.value(familyOption)));
        }
    }

    InputText input = readInput(positional.first());
    if (!input.error.isEmpty())
        return fail(ExitUsage, input.error);
    // One transaction, perhaps wrapped over lines (`base64` at 76 columns, PEM at 64, `xxd -p`
    // at 60): the whitespace is no part of it.
    input.text.removeIf([](QChar c) { return c.isSpace(); });
    if (input.text.isEmpty())
        return fail(ExitUsage, QStringLiteral("the input is empty"));
    // `--family evm` also reads hex without its 0x (as `xxd -p` writes it).
    if (family == ChainFamily::Evm &&
        !input.text.startsWith(QLatin1String("0x"), Qt::CaseInsensitive))
        input.text.prepend(QLatin1String("0x"));
    // Read as `track` reads it: the same encodings are the same bytes here.
    QString error;
    const std::optional<TransactionText> read = readTransactionText(input.text, family, &error);
    const QString inputName =
        familyName(textFamily(input.text, family)) + QStringLiteral(" input: ");
    if (!read)
        return fail(ExitUsage, inputName + error);
    if (!read->wire)
        return fail(ExitUsage,
                    inputName + QStringLiteral("%1 is a transaction id, not its signed bytes: "
                                               "inspect decodes the bytes (`switchyard lookup` "
                                               "finds a transaction by its id)")
                                    .arg(read->watchId));
    const bool text = parser.isSet(textOption);
    return read->family == ChainFamily::Evm ? printEvm(*read->wire, text)
                                            : printSolana(*read->wire, text);
}

} // namespace switchyard::cli
