// Writes tests/chain/vectors/evm-type4.json: EIP-7702 (type 4) transactions signed by ethers,
// a signing library this project did not write, with random keys. Run from anywhere:
//   node bench/vectors/make-evm-type4.mjs
import { Transaction, Wallet, keccak256 } from 'ethers';
import { writeFileSync } from 'node:fs';

const out = new URL('../../tests/chain/vectors/evm-type4.json', import.meta.url);
const address = (byte) => '0x' + byte.repeat(20);
const cases = [
    { chainId: 1, nonce: 0, authorities: 1, data: '0x', accessList: [] },
    { chainId: 137, nonce: 77, authorities: 2, data: '0xa9059cbb', accessList: [] },
    {
        chainId: 11155111,
        nonce: 4096,
        authorities: 1,
        data: '0x',
        accessList: [{ address: address('33'), storageKeys: ['0x' + '01'.padStart(64, '0')] }],
    },
    { chainId: 42161, nonce: 2 ** 40, authorities: 3, data: '0x00ff', accessList: [] },
];

const vectors = [];
for (const c of cases) {
    const sender = Wallet.createRandom();
    const authorizationList = [];
    for (let i = 0; i < c.authorities; ++i) {
        const authority = Wallet.createRandom();
        authorizationList.push(
            await authority.authorize({ address: address('4' + i), nonce: i, chainId: i === 1 ? 0 : c.chainId }),
        );
    }
    const raw = await sender.signTransaction({
        type: 4,
        to: address('22'),
        chainId: c.chainId,
        nonce: c.nonce,
        gasLimit: 100000,
        maxFeePerGas: 30n * 10n ** 9n,
        maxPriorityFeePerGas: 10n ** 9n,
        value: 10n ** 15n + BigInt(c.nonce),
        data: c.data,
        accessList: c.accessList,
        authorizationList,
    });
    const parsed = Transaction.from(raw);
    if (parsed.hash !== keccak256(raw) || parsed.from !== sender.address) {
        throw new Error('ethers does not read back its own transaction');
    }
    vectors.push({
        type: 4,
        raw,
        hash: keccak256(raw),
        from: sender.address,
        chainId: c.chainId,
        nonce: c.nonce,
        to: address('22'),
        value: parsed.value.toString(),
        authorizations: c.authorities,
    });
}
writeFileSync(out, JSON.stringify(vectors, null, 1) + '\n');
console.log(`wrote ${vectors.length} vectors to ${out.pathname}`);
