// What a user would script instead of `switchyard inspect`: @solana/kit's transaction decoder
// and ethers v6 `Transaction.from(raw)`, over the same fixtures, in the same modes as
// bench_decode. Prints one "MODE TX_PER_SECOND" line per mode.
import {
    getBase64Encoder,
    getCompiledTransactionMessageDecoder,
    getPublicKeyFromAddress,
    getSignatureFromTransaction,
    getTransactionDecoder,
    verifySignature,
} from '@solana/kit';
import { Transaction } from 'ethers';
import { readFileSync } from 'node:fs';

const [fixturesDir, secondsArg] = process.argv.slice(2);
if (!fixturesDir) {
    console.error('usage: node peers.mjs FIXTURES_DIR [SECONDS_PER_MODE]');
    process.exit(2);
}
const seconds = Number(secondsArg ?? 3);
const solana = JSON.parse(readFileSync(`${fixturesDir}/solana-wire-transactions.json`, 'utf8'));
const evm = JSON.parse(readFileSync(`${fixturesDir}/evm-raw-transactions.json`, 'utf8'));

const base64 = getBase64Encoder();
const transactionDecoder = getTransactionDecoder();
const messageDecoder = getCompiledTransactionMessageDecoder();

function solanaDecode(wireBase64) {
    const transaction = transactionDecoder.decode(base64.encode(wireBase64));
    const message = messageDecoder.decode(transaction.messageBytes);
    return {
        transaction,
        id: getSignatureFromTransaction(transaction),
        feePayer: message.staticAccounts[0],
        blockhash: message.lifetimeToken,
    };
}

async function solanaVerify(wireBase64) {
    const decoded = solanaDecode(wireBase64);
    for (const [address, signature] of Object.entries(decoded.transaction.signatures)) {
        const key = await getPublicKeyFromAddress(address);
        if (!(await verifySignature(key, signature, decoded.transaction.messageBytes))) {
            return null;
        }
    }
    return decoded;
}

function evmDecode(raw) {
    const tx = Transaction.from(raw);
    return { id: tx.hash, nonce: tx.nonce, chainId: tx.chainId };
}

function evmRecover(raw) {
    const tx = Transaction.from(raw);
    return { id: tx.hash, from: tx.from };
}

async function measure(inputs, check, decodeOne) {
    for (const [i, input] of inputs.entries()) {
        if (!check(await decodeOne(input), i)) {
            throw new Error(`fixture ${i} does not decode as expected`);
        }
    }
    let count = 0;
    const start = process.hrtime.bigint();
    const budget = BigInt(Math.round(seconds * 1e9));
    while (process.hrtime.bigint() - start < budget) {
        for (const input of inputs) {
            await decodeOne(input);
        }
        count += inputs.length;
    }
    const elapsed = Number(process.hrtime.bigint() - start) / 1e9;
    return count / elapsed;
}

const solanaWire = solana.map((f) => f.wireBase64);
const evmRaw = evm.map((f) => f.raw);
const solanaOk = (d, i) => d && d.id === solana[i].signature && d.feePayer === solana[i].feePayer;
const report = (mode, perSecond) => console.log(`${mode} ${perSecond.toFixed(0)}`);

report('solana-decode', await measure(solanaWire, solanaOk, (w) => solanaDecode(w)));
report('solana-verify', await measure(solanaWire, solanaOk, (w) => solanaVerify(w)));
report('evm-decode', await measure(evmRaw, (d, i) => d.id === evm[i].hash, (r) => evmDecode(r)));
report(
    'evm-recover',
    await measure(evmRaw, (d, i) => d.id === evm[i].hash && d.from === evm[i].from, (r) => evmRecover(r)),
);
