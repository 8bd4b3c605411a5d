#include "evmtransaction.h"

#include "chain/codec/hex.h"
#include "chain/evm/rlp.h"

#include <QCryptographicHash>
#include <algorithm>
#include <array>
#include <cstring>
#include <secp256k1.h>
#include <secp256k1_recovery.h>

namespace switchyard::chain::evm {

namespace {

constexpr qsizetype kAddressSize = 20;
constexpr qsizetype kWordSize = 32;

// secp256k1's group order n, and n / 2 (the largest "low" s, EIP-2).
constexpr std::array<std::uint8_t, 32> kCurveOrder = {
    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe,
    0xba, 0xae, 0xdc, 0xe6, 0xaf, 0x48, 0xa0, 0x3b, 0xbf, 0xd2, 0x5e, 0x8c, 0xd0, 0x36, 0x41, 0x41};
constexpr std::array<std::uint8_t, 32> kHalfCurveOrder = {
    0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
    0x5d, 0x57, 0x6e, 0x73, 0x57, 0xa4, 0x50, 0x1d, 0xdf, 0xe9, 0x2f, 0x46, 0x68, 0x1b, 0x20, 0xa0};

QByteArray keccak(QByteArrayView bytes)
{
    return QCryptographicHash::hash(bytes, QCryptographicHash::Keccak_256);
}

DecodeError fieldError(const RlpItem& item, const char* field, const QString& problem)
{
    return {QStringLiteral("field %1 at offset %2 %3")
                .arg(QLatin1String(field))
                .arg(item.offset)
                .arg(problem),
            item.offset};
}

DecodeResult<ByteSpan> stringField(const RlpItem& item, const char* field)
{
    if (item.isList)
        return fieldError(item, field, QStringLiteral("is a list, expected a byte string"));
    return item.payload;
}

// An unsigned integer of at most `maxBytes` bytes, minimal big-endian (no leading zero byte).
DecodeResult<QByteArray> uintField(const RlpItem& item, const char* field, qsizetype maxBytes)
{
    const auto bytes = stringField(item, field);
    if (!bytes)
        return bytes.error();
    if (static_cast<qsizetype>(bytes->size()) > maxBytes) {
        return fieldError(item, field,
                          QStringLiteral("is %1 bytes, over the %2 an integer here may take")
                              .arg(bytes->size())
                              .arg(maxBytes));
    }
    if (!bytes->empty() && (*bytes)[0] == 0) {
        return fieldError(item, field,
                          QStringLiteral("is a non-canonical integer (leading zero byte)"));
    }
    return toByteArray(*bytes);
}

quint64 toU64(const QByteArray& bigEndian)
{
    quint64 value = 0;
    for (const char b : bigEndian)
        value = (value << 8) | static_cast<quint8>(b);
    return value;
}

DecodeResult<quint64> u64Field(const RlpItem& item, const char* field)
{
    const auto bytes = uintField(item, field, 8);
    if (!bytes)
        return bytes.error();
    return toU64(*bytes);
}

QByteArray leftPad32(const QByteArray& bytes)
{
    return QByteArray(kWordSize - bytes.size(), '\0') + bytes;
}

// memcmp order of a 32-byte word against a 32-byte constant.
int compareWord(const QByteArray& word, const std::array<std::uint8_t, 32>& bound)
{
    return std::memcmp(word.constData(), bound.data(), bound.size());
}

std::optional<DecodeError> parseSignature(const RlpItem& rItem, const RlpItem& sItem,
                                          Transaction& tx)
{
    const auto r = uintField(rItem, "r", kWordSize);
    if (!r)
        return r.error();
    const auto s = uintField(sItem, "s", kWordSize);
    if (!s)
        return s.error();
    tx.r = leftPad32(*r);
    tx.s = leftPad32(*s);
    if (r->isEmpty())
        return fieldError(rItem, "r", QStringLiteral("is zero"));
    if (s->isEmpty())
        return fieldError(sItem, "s", QStringLiteral("is zero"));
    if (compareWord(tx.r, kCurveOrder) >= 0)
        return fieldError(rItem, "r", QStringLiteral("is not below the secp256k1 group order"));
    if (compareWord(tx.s, kHalfCurveOrder) > 0) {
        return fieldError(sItem, "s",
                          QStringLiteral("is in the upper half of the group order (EIP-2 "
                                         "requires the low form)"));
    }
    return std::nullopt;
}

std::optional<DecodeError> parseAccessList(const RlpItem& item, Transaction& tx)
{
    if (!item.isList)
        return fieldError(item, "accessList", QStringLiteral("is a byte string, expected a list"));
    for (const RlpItem& entry : item.items) {
        if (!entry.isList || entry.items.size() != 2) {
            return fieldError(entry, "accessList entry",
                              QStringLiteral("is not a list [address, storageKeys]"));
        }
        const auto address = stringField(entry.items[0], "accessList address");
        if (!address)
            return address.error();
        if (static_cast<qsizetype>(address->size()) != kAddressSize) {
            return fieldError(entry.items[0], "accessList address",
                              QStringLiteral("is %1 bytes, expected 20").arg(address->size()));
        }
        const RlpItem& keys = entry.items[1];
        if (!keys.isList) {
            return fieldError(keys, "accessList storageKeys",
                              QStringLiteral("is a byte string, expected a list"));
        }
        for (const RlpItem& key : keys.items) {
            const auto bytes = stringField(key, "accessList storage key");
            if (!bytes)
                return bytes.error();
            if (static_cast<qsizetype>(bytes->size()) != kWordSize) {
                return fieldError(key, "accessList storage key",
                                  QStringLiteral("is %1 bytes, expected 32").arg(bytes->size()));
            }
        }
        ++tx.accessListSize;
    }
    return std::nullopt;
}

// EIP-7702 tuples [chainId, address, nonce, yParity, r, s]. An authority's bad signature only
// makes the node skip that tuple, so its values are checked for shape, not validity.
std::optional<DecodeError> parseAuthorizationList(const RlpItem& item, Transaction& tx)
{
    if (!item.isList) {
        return fieldError(item, "authorizationList",
                          QStringLiteral("is a byte string, expected a list"));
    }
    if (item.items.empty())
        return fieldError(item, "authorizationList", QStringLiteral("is empty (EIP-7702)"));
    for (const RlpItem& tuple : item.items) {
        if (!tuple.isList || tuple.items.size() != 6) {
            return fieldError(tuple, "authorization",
                              QStringLiteral("is not a list [chainId, address, nonce, yParity, "
                                             "r, s]"));
        }
        if (const auto chainId = uintField(tuple.items[0], "authorization chainId", kWordSize);
            !chainId)
            return chainId.error();
        const auto address = stringField(tuple.items[1], "authorization address");
        if (!address)
            return address.error();
        if (static_cast<qsizetype>(address->size()) != kAddressSize) {
            return fieldError(tuple.items[1], "authorization address",
                              QStringLiteral("is %1 bytes, expected 20").arg(address->size()));
        }
        if (const auto nonce = u64Field(tuple.items[2], "authorization nonce"); !nonce)
            return nonce.error();
        if (const auto parity = uintField(tuple.items[3], "authorization yParity", 1); !parity)
            return parity.error();
        if (const auto r = uintField(tuple.items[4], "authorization r", kWordSize); !r)
            return r.error();
        if (const auto sValue = uintField(tuple.items[5], "authorization s", kWordSize); !sValue)
            return sValue.error();
        ++tx.authorizationCount;
    }
    return std::nullopt;
}

std::optional<DecodeError> parseTo(const RlpItem& item, Transaction& tx)
{
    const auto to = stringField(item, "to");
    if (!to)
        return to.error();
    if (to->empty())
        return std::nullopt;
    if (static_cast<qsizetype>(to->size()) != kAddressSize) {
        return fieldError(item, "to",
                          QStringLiteral("is %1 bytes, expected 20 (or empty to create a "
                                         "contract)")
                              .arg(to->size()));
    }
    tx.to = toByteArray(*to);
    return std::nullopt;
}

// The signed payload: the list of the first `count` fields, plus `extra` encoded fields.
QByteArray signingPayload(const RlpItem& list, std::size_t count, const QByteArray& extra, int type)
{
    qsizetype payloadSize = extra.size();
    for (std::size_t i = 0; i < count; ++i)
        payloadSize += static_cast<qsizetype>(list.items[i].encoded.size());
    QByteArray out;
    out.reserve(payloadSize + 10);
    if (type != 0)
        out += static_cast<char>(type);
    appendRlpHeader(out, payloadSize, true);
    for (std::size_t i = 0; i < count; ++i) {
        const ByteSpan encoded = list.items[i].encoded;
        out.append(reinterpret_cast<const char*>(encoded.data()),
                   static_cast<qsizetype>(encoded.size()));
    }
    out += extra;
    return out;
}

DecodeError wrongFieldCount(const RlpItem& list, int type, std::size_t expected)
{
    return {QStringLiteral("type %1 transaction at offset %2 has %3 fields, expected %4")
                .arg(type)
                .arg(list.offset)
                .arg(list.items.size())
                .arg(expected),
            list.offset};
}

std::optional<DecodeError> decodeLegacy(const RlpItem& list, Transaction& tx)
{
    if (list.items.size() != 9)
        return wrongFieldCount(list, 0, 9);
    const auto nonce = u64Field(list.items[0], "nonce");
    if (!nonce)
        return nonce.error();
    tx.nonce = *nonce;
    const auto gasPrice = uintField(list.items[1], "gasPrice", kWordSize);
    if (!gasPrice)
        return gasPrice.error();
    tx.gasPrice = *gasPrice;
    const auto gas = u64Field(list.items[2], "gasLimit");
    if (!gas)
        return gas.error();
    tx.gasLimit = *gas;
    if (auto error = parseTo(list.items[3], tx))
        return error;
    const auto value = uintField(list.items[4], "value", kWordSize);
    if (!value)
        return value.error();
    tx.value = *value;
    const auto data = stringField(list.items[5], "data");
    if (!data)
        return data.error();
    tx.data = toByteArray(*data);

    const RlpItem& vItem = list.items[6];
    const auto vBytes = uintField(vItem, "v", kWordSize);
    if (!vBytes)
        return vBytes.error();
    if (vBytes->size() > 8)
        return fieldError(vItem, "v", QStringLiteral("encodes a chain id beyond 2^63"));
    const quint64 v = toU64(*vBytes);
    QByteArray extra;
    if (v == 27 || v == 28) {
        tx.recoveryId = static_cast<int>(v - 27);
    } else if (v >= 35) {
        const quint64 chainId = (v - 35) / 2;
        if (chainId > kMaxChainId) {
            return fieldError(
                vItem, "v",
                QStringLiteral("encodes chain id %1, over the EIP-2294 limit").arg(chainId));
        }
        tx.chainId = chainId;
        tx.recoveryId = static_cast<int>((v - 35) % 2);
        appendRlpUint(extra, chainId);
        extra += static_cast<char>(0x80);
        extra += static_cast<char>(0x80);
    } else {
        return fieldError(vItem, "v",
                          QStringLiteral("is %1, expected 27, 28 or chainId*2+35/36").arg(v));
    }
    if (auto error = parseSignature(list.items[7], list.items[8], tx))
        return error;
    tx.signingHash = keccak(signingPayload(list, 6, extra, 0));
    return std::nullopt;
}

std::optional<DecodeError> decodeTyped(const RlpItem& list, Transaction& tx)
{
    const std::size_t fields = tx.type == 1 ? 11 : tx.type == 2 ? 12 : 13;
    if (list.items.size() != fields)
        return wrongFieldCount(list, tx.type, fields);
    std::size_t i = 0;
    const auto chainId = u64Field(list.items[i], "chainId");
    if (!chainId)
        return chainId.error();
    if (*chainId > kMaxChainId) {
        return fieldError(list.items[i], "chainId",
                          QStringLiteral("is %1, over the EIP-2294 limit").arg(*chainId));
    }
    tx.chainId = *chainId;
    const auto nonce = u64Field(list.items[++i], "nonce");
    if (!nonce)
        return nonce.error();
    tx.nonce = *nonce;
    if (tx.type == 1) {
        const auto gasPrice = uintField(list.items[++i], "gasPrice", kWordSize);
        if (!gasPrice)
            return gasPrice.error();
        tx.gasPrice = *gasPrice;
    } else {
        const auto tip = uintField(list.items[++i], "maxPriorityFeePerGas", kWordSize);
        if (!tip)
            return tip.error();
        tx.maxPriorityFeePerGas = *tip;
        const auto maxFee = uintField(list.items[++i], "maxFeePerGas", kWordSize);
        if (!maxFee)
            return maxFee.error();
        tx.maxFeePerGas = *maxFee;
    }
    const auto gas = u64Field(list.items[++i], "gasLimit");
    if (!gas)
        return gas.error();
    tx.gasLimit = *gas;
    if (auto error = parseTo(list.items[++i], tx))
        return error;
    if (tx.type == 4 && !tx.to) {
        return fieldError(list.items[i], "to",
                          QStringLiteral("is empty: a type 4 transaction cannot create a "
                                         "contract"));
    }
    const auto value = uintField(list.items[++i], "value", kWordSize);
    if (!value)
        return value.error();
    tx.value = *value;
    const auto data = stringField(list.items[++i], "data");
    if (!data)
        return data.error();
    tx.data = toByteArray(*data);
    if (auto error = parseAccessList(list.items[++i], tx))
        return error;
    if (tx.type == 4) {
        if (auto error = parseAuthorizationList(list.items[++i], tx))
            return error;
    }
    const RlpItem& parityItem = list.items[++i];
    const auto parity = uintField(parityItem, "yParity", 1);
    if (!parity)
        return parity.error();
    const quint64 y = toU64(*parity);
    if (y > 1)
        return fieldError(parityItem, "yParity", QStringLiteral("is %1, expected 0 or 1").arg(y));
    tx.recoveryId = static_cast<int>(y);
    if (auto error = parseSignature(list.items[i + 1], list.items[i + 2], tx))
        return error;
    tx.signingHash = keccak(signingPayload(list, i, {}, tx.type));
    return std::nullopt;
}

const secp256k1_context* secpContext()
{
    static const secp256k1_context* context = secp256k1_context_create(SECP256K1_CONTEXT_NONE);
    return context;
}

} // namespace

QString Transaction::id() const
{
    return hexEncode(hash);
}

DecodeResult<Transaction> decodeTransaction(const QByteArray& raw)
{
    if (raw.isEmpty())
        return DecodeError{QStringLiteral("empty transaction"), 0};
    if (raw.size() > kMaxTransactionSize) {
        return DecodeError{QStringLiteral("transaction is %1 bytes, over the %2-byte limit nodes "
                                          "accept")
                               .arg(raw.size())
                               .arg(kMaxTransactionSize),
                           kMaxTransactionSize};
    }
    const auto first = static_cast<std::uint8_t>(raw[0]);
    Transaction tx;
    tx.size = raw.size();
    const ByteSpan bytes = asSpan(raw);

    if (first >= 0xc0) {
        tx.type = 0;
    } else if (first == 1 || first == 2 || first == 4) {
        tx.type = first;
    } else if (first < 0x80) {
        return DecodeError{QStringLiteral("unsupported transaction type 0x%1 at offset 0")
                               .arg(first, 2, 16, QLatin1Char('0')),
                           0};
    } else {
        return DecodeError{QStringLiteral("not a transaction: byte 0x%1 at offset 0 starts an RLP "
                                          "string, expected a type byte or a list")
                               .arg(first, 2, 16, QLatin1Char('0')),
                           0};
    }

    const qsizetype bodyOffset = tx.type == 0 ? 0 : 1;
    const auto list = decodeRlp(bytes.subspan(static_cast<std::size_t>(bodyOffset)), bodyOffset);
    if (!list)
        return list.error();
    if (!list->isList) {
        return DecodeError{QStringLiteral("type %1 transaction at offset %2 is an RLP string, "
                                          "expected a list")
                               .arg(tx.type)
                               .arg(bodyOffset),
                           bodyOffset};
    }
    const auto error = tx.type == 0 ? decodeLegacy(*list, tx) : decodeTyped(*list, tx);
    if (error)
        return *error;
    tx.hash = keccak(raw);
    return tx;
}

DecodeResult<QByteArray> recoverSender(const Transaction& transaction)
{
    if (transaction.r.size() != kWordSize || transaction.s.size() != kWordSize ||
        transaction.signingHash.size() != kWordSize || transaction.recoveryId < 0 ||
        transaction.recoveryId > 1) {
        return DecodeError{QStringLiteral("transaction carries no complete signature"), 0};
    }
    std::array<unsigned char, 64> compact{};
    std::copy(transaction.r.begin(), transaction.r.end(), compact.begin());
    std::copy(transaction.s.begin(), transaction.s.end(), compact.begin() + kWordSize);

    const secp256k1_context* context = secpContext();
    secp256k1_ecdsa_recoverable_signature signature;
    if (!secp256k1_ecdsa_recoverable_signature_parse_compact(context, &signature, compact.data(),
                                                             transaction.recoveryId)) {
        return DecodeError{QStringLiteral("signature (r, s) is out of range"), 0};
    }
    secp256k1_pubkey publicKey;
    if (!secp256k1_ecdsa_recover(
            context, &publicKey, &signature,
            reinterpret_cast<const unsigned char*>(transaction.signingHash.constData()))) {
        return DecodeError{QStringLiteral("signature recovers no public key: the bytes were not "
                                          "signed as they are"),
                           0};
    }
    std::array<unsigned char, 65> serialized{};
    std::size_t length = serialized.size();
    secp256k1_ec_pubkey_serialize(context, serialized.data(), &length, &publicKey,
                                  SECP256K1_EC_UNCOMPRESSED);
    const QByteArray digest =
        keccak(QByteArrayView(reinterpret_cast<const char*>(serialized.data()) + 1, 64));
    return digest.right(kAddressSize);
}

QString checksumAddress(const QByteArray& address)
{
    const QString lower = hexEncode(address).mid(2);
    const QByteArray digest = keccak(lower.toLatin1());
    QString out = QStringLiteral("0x");
    out.reserve(2 + lower.size());
    for (qsizetype i = 0; i < lower.size(); ++i) {
        const auto nibble = (static_cast<quint8>(digest[i / 2]) >> (i % 2 == 0 ? 4 : 0)) & 0x0f;
        out += nibble >= 8 ? lower[i].toUpper() : lower[i];
    }
    return out;
}

QString toDecimal(const QByteArray& bigEndian)
{
    QByteArray number = bigEndian;
    QString digits;
    for (;;) {
        qsizetype start = 0;
        while (start < number.size() && number[start] == 0)
            ++start;
        if (start == number.size())
            break;
        int remainder = 0;
        for (qsizetype i = start; i < number.size(); ++i) {
            const int current = (remainder << 8) | static_cast<quint8>(number[i]);
            number[i] = static_cast<char>(current / 10);
            remainder = current % 10;
        }
        digits.prepend(QLatin1Char(static_cast<char>('0' + remainder)));
    }
    return digits.isEmpty() ? QStringLiteral("0") : digits;
}

} // namespace switchyard::chain::evm
