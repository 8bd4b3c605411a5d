#include "simulatedcluster.h"

#include "chain/codec/base58.h"
#include "sim/evmledger.h"
#include "sim/evmmethods.h"
#include "sim/simulatednode.h"
#include "sim/solanaledger.h"
#include "sim/solanamethods.h"
#include "util/clock.h"

#include <QCryptographicHash>
#include <QtEndian>
#include <array>
#include <limits>

namespace switchyard::sim {

namespace {

QByteArray sha256(const QByteArray& data)
{
    return QCryptographicHash::hash(data, QCryptographicHash::Sha256);
}

quint64 splitMix64(quint64 x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

// The skipped offsets (1..31, distinct, ascending) within one window of kSlotWindow slots.
// Offset 0 is never skipped, so the genesis slot 0 always has a block.
std::array<int, 2> skippedOffsets(quint64 seed, qint64 window)
{
    static_assert(SimulatedCluster::kSlotWindow == 32 &&
                  SimulatedCluster::kSkippedSlotsPerWindow == 2);
    const quint64 r = splitMix64(seed + static_cast<quint64>(window));
    const int a = 1 + static_cast<int>(r % 31);
    int b = 1 + static_cast<int>((r >> 16) % 30);
    if (b >= a)
        ++b;
    return {qMin(a, b), qMax(a, b)};
}

} // namespace

SimulatedCluster::SimulatedCluster(ChainFamily family, const QString& name, Clock* clock,
                                   QObject* parent)
    : QObject(parent)
    , m_family(family)
    , m_name(name)
    , m_clock(clock ? clock : Clock::system())
    , m_genesisHash(chain::base58Encode(sha256("switchyard-sim genesis:" + name.toUtf8())))
    , m_head(family == ChainFamily::Solana ? kDefaultSolanaHead : kDefaultEvmHead)
    , m_skipSeed(
          qFromBigEndian<quint64>(sha256("switchyard-sim skips:" + name.toUtf8()).constData()))
    , m_methods(family == ChainFamily::Solana ? solanaMethods() : evmMethods())
{
    connect(&m_autoAdvance, &QTimer::timeout, this, [this] { advance(1); });
    if (family == ChainFamily::Solana)
        m_solanaLedger = std::make_unique<SolanaLedger>(this);
    else
        m_evmLedger = new EvmLedger(this);
}

SimulatedCluster::~SimulatedCluster() = default;

bool SimulatedCluster::setGenesisHash(const QString& hash, QString* error)
{
    const chain::DecodeResult<QByteArray> bytes = chain::base58Decode(hash);
    if (!bytes || bytes->size() != 32) {
        if (error) {
            *error = QStringLiteral("cluster %1: genesis hash \"%2\" is not base58 of 32 bytes")
                         .arg(m_name, hash);
        }
        return false;
    }
    m_genesisHash = hash;
    return true;
}

void SimulatedCluster::setChainId(quint64 chainId)
{
    m_chainId = chainId;
}

QString SimulatedCluster::wrongNetworkGenesisHash() const
{
    return chain::base58Encode(sha256("switchyard-sim wrong network:" + m_genesisHash.toLatin1()));
}

quint64 SimulatedCluster::wrongNetworkChainId() const
{
    return m_chainId == std::numeric_limits<quint64>::max() ? m_chainId - 1 : m_chainId + 1;
}

void SimulatedCluster::setHead(qint64 head)
{
    head = qMax<qint64>(0, head);
    if (head == m_head)
        return;
    m_head = head;
    Q_EMIT headChanged(m_head);
}

void SimulatedCluster::advance(int n)
{
    if (n <= 0)
        return;
    m_head += n;
    Q_EMIT headChanged(m_head);
}

void SimulatedCluster::setAutoAdvanceInterval(int ms)
{
    if (ms <= 0) {
        m_autoAdvance.stop();
        return;
    }
    m_autoAdvance.start(ms);
}

int SimulatedCluster::autoAdvanceInterval() const
{
    return m_autoAdvance.isActive() ? m_autoAdvance.interval() : 0;
}

bool SimulatedCluster::isSkippedSlot(qint64 slot) const
{
    if (m_family != ChainFamily::Solana || slot <= 0)
        return false;
    const auto offsets = skippedOffsets(m_skipSeed, slot / kSlotWindow);
    const int offset = static_cast<int>(slot % kSlotWindow);
    return offset == offsets[0] || offset == offsets[1];
}

qint64 SimulatedCluster::blockHeightAtSlot(qint64 slot) const
{
    if (slot <= 0)
        return 0;
    if (m_family != ChainFamily::Solana)
        return slot;
    const qint64 window = slot / kSlotWindow;
    const int offset = static_cast<int>(slot % kSlotWindow);
    qint64 skipped = window * kSkippedSlotsPerWindow;
    for (int skippedOffset : skippedOffsets(m_skipSeed, window)) {
        if (skippedOffset <= offset)
            ++skipped;
    }
    return slot - skipped;
}

QString SimulatedCluster::blockhashAtHeight(qint64 height) const
{
    return blockhashFor(m_genesisHash, height);
}

QString SimulatedCluster::blockhashFor(const QString& genesisHash, qint64 height)
{
    return chain::base58Encode(sha256("switchyard-sim blockhash:" + genesisHash.toLatin1() + ':' +
                                      QByteArray::number(height)));
}

qint64 SimulatedCluster::blockTimeAtSlot(qint64 slot) const
{
    return kGenesisUnixTime + qMax<qint64>(0, slot) * 2 / 5;
}

bool SimulatedCluster::acceptBlockhash(const QString& hash, qint64 height)
{
    return m_solanaLedger && m_solanaLedger->acceptBlockhash(hash, height);
}

void SimulatedCluster::setHealthSlotDistance(qint64 distance)
{
    m_healthSlotDistance = qMax<qint64>(0, distance);
}

SimulatedNode* SimulatedCluster::addNode(const QString& name)
{
    if (node(name)) {
        qWarning("sim: cluster %s already has a node named %s", qUtf8Printable(m_name),
                 qUtf8Printable(name));
        return nullptr;
    }
    auto* created = new SimulatedNode(this, name);
    QString error;
    if (!created->start(&error)) {
        qWarning("sim: %s", qUtf8Printable(error));
        delete created;
        return nullptr;
    }
    m_nodes.append(created);
    return created;
}

SimulatedNode* SimulatedCluster::node(const QString& name) const
{
    for (SimulatedNode* candidate : m_nodes) {
        if (candidate->name() == name)
            return candidate;
    }
    return nullptr;
}

void SimulatedCluster::setMethod(const QString& name, MethodHandler handler)
{
    if (handler)
        m_methods.insert(name, std::move(handler));
    else
        m_methods.remove(name);
}

} // namespace switchyard::sim
