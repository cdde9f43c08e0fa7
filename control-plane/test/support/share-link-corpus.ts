/**
 * Share links in the shapes real panels and clients write them (XTLS share-link proposal,
 * Xray-core discussion 716, and its later fields: spx, pqv, extra, mode, headerType, seed,
 * quicSecurity, allowInsecure, ...): every transport (tcp/raw, ws, grpc, h2/http, httpupgrade,
 * xhttp/splithttp, kcp, quic), each security (none, tls, reality), IPv4, IPv6 and DNS hosts,
 * names with unicode, escapes and '#'. Addresses are documentation ones (RFC 5737, RFC 3849).
 */
const ID = 'b831381d-6324-4d53-ad4f-8cda48b30811';
const PBK = 'Xs7d8fK2lq9Zp0aQw3E4rT5yU6iO7pA8sD9fG0hJ1kL';

export interface CorpusLink {
  label: string;
  link: string;
}

export const SHARE_LINK_CORPUS: readonly CorpusLink[] = [
  {
    label: 'reality tcp vision, spx, empty headerType',
    link: `vless://${ID}@203.0.113.10:443?encryption=none&flow=xtls-rprx-vision&security=reality&sni=www.microsoft.com&fp=chrome&pbk=${PBK}&sid=6ba85179e30d4fc2&spx=%2F&type=tcp&headerType=none#%F0%9F%87%A9%F0%9F%87%AA%20Frankfurt%20REALITY`,
  },
  {
    label: 'reality raw vision udp443, pqv, empty sid',
    link: `vless://${ID}@203.0.113.11:8443?security=reality&encryption=none&pbk=${PBK}&fp=random&type=raw&flow=xtls-rprx-vision-udp443&sni=dl.google.com&sid=&pqv=QUJDRA&spx=%2Fsearch%3Fq%3Dvpn#Helsinki`,
  },
  {
    label: 'reality grpc multi, authority',
    link: `vless://${ID}@[2001:db8:85a3::8a2e:370:7334]:443?type=grpc&serviceName=grpc-%D1%81%D0%B5%D1%80%D0%B2%D0%B8%D1%81&mode=multi&authority=cdn.example.org&security=reality&fp=safari&pbk=${PBK}&sni=www.apple.com&sid=a1#%D0%9C%D0%BE%D1%81%D0%BA%D0%B2%D0%B0%20gRPC`,
  },
  {
    label: 'reality xhttp auto with extra JSON',
    link: `vless://${ID}@node.example.net:443?mode=auto&path=%2Fxhttp&security=reality&encryption=none&pbk=${PBK}&fp=chrome&type=xhttp&sni=www.example.com&sid=0123456789abcdef&extra=%7B%22xmux%22%3A%7B%22maxConcurrency%22%3A%2216-32%22%2C%22cMaxReuseTimes%22%3A0%7D%2C%22noGRPCHeader%22%3Afalse%7D#XHTTP%20%E2%9C%93`,
  },
  {
    label: 'tls ws with early data in the path',
    link: `vless://${ID}@cdn.example.com:443?encryption=none&security=tls&sni=cdn.example.com&alpn=http%2F1.1&fp=firefox&type=ws&host=cdn.example.com&path=%2Fws%3Fed%3D2048#CDN%20WS`,
  },
  {
    label: 'tls grpc gun, alpn h2',
    link: `vless://${ID}@grpc.example.com:2053?security=tls&sni=grpc.example.com&alpn=h2&fp=edge&type=grpc&serviceName=TunService&mode=gun#gRPC%20%7C%20Tokyo%20%E6%9D%B1%E4%BA%AC`,
  },
  {
    label: 'tls h2 (type=http) with host list',
    link: `vless://${ID}@203.0.113.20:443?security=tls&sni=h2.example.com&type=http&host=a.example.com%2Cb.example.com&path=%2Fh2path#H2`,
  },
  {
    label: 'tls h2 (type=h2)',
    link: `vless://${ID}@h2.example.com:443?security=tls&sni=h2.example.com&type=h2&host=h2.example.com&path=%2F#H2%20new%20name`,
  },
  {
    label: 'tls httpupgrade',
    link: `vless://${ID}@up.example.com:80?security=tls&sni=up.example.com&type=httpupgrade&host=up.example.com&path=%2Fup%3Fed%3D2560&fp=ios#HTTPUpgrade`,
  },
  {
    label: 'tls tcp, alpn list, allowInsecure, ech',
    link: `vless://${ID}@203.0.113.21:443?security=tls&sni=self-signed.example&alpn=h2%2Chttp%2F1.1&allowInsecure=1&fp=chrome&type=tcp&ech=AEX%2BDQBBpAAgACBmKk&insecure=1#Self%20signed`,
  },
  {
    label: 'none tcp with http header camouflage',
    link: `vless://${ID}@203.0.113.22:8080?encryption=none&security=none&type=tcp&headerType=http&host=www.example.com%2Cwww.example.org&path=%2Findex.html#HTTP%20camouflage`,
  },
  {
    label: 'none kcp with seed and header',
    link: `vless://${ID}@203.0.113.23:10000?type=kcp&headerType=wechat-video&seed=correct+horse+battery&security=none#mKCP%20%F0%9F%90%8E`,
  },
  {
    label: 'mkcp alias',
    link: `vless://${ID}@203.0.113.24:10001?type=mkcp&headerType=dtls&seed=s%2Bp%2Fq%3D&security=none#mKCP%20dtls`,
  },
  {
    label: 'quic with its own security and key',
    link: `vless://${ID}@quic.example.com:443?security=tls&sni=quic.example.com&alpn=h3&type=quic&quicSecurity=chacha20-poly1305&key=k%C3%A9y&headerType=srtp#QUIC`,
  },
  {
    label: 'splithttp (old xhttp name) packet-up',
    link: `vless://${ID}@[2001:db8::20]:8443?security=tls&sni=sh.example.com&type=splithttp&path=%2Fsplit&host=sh.example.com&mode=packet-up#SplitHTTP%20v6`,
  },
  {
    label: 'xhttp stream-one over plain http',
    link: `vless://${ID}@xh.example.com:80?security=none&type=xhttp&path=%2F&mode=stream-one&host=xh.example.com#XHTTP%20plain`,
  },
  {
    label: 'ipv6 written long and upper-case',
    link: `vless://${ID}@[2001:DB8:0:0:0:0:0:33]:443?security=tls&sni=v6.example.net&type=ws&path=%2Fws#IPv6%20long`,
  },
  {
    label: 'upper-case DNS name',
    link: `vless://${ID}@Node-7.Example.NET:443?security=tls&sni=Node-7.Example.NET&type=tcp#Upper`,
  },
  {
    label: "name with '#', '%' and emoji",
    link: `vless://${ID}@203.0.113.25:443?security=none&type=tcp#100%25%20fast%20%231%20%F0%9F%9A%80#second`,
  },
  {
    label: 'VLESS encryption (ML-KEM) and packetEncoding',
    link: `vless://${ID}@203.0.113.26:443?encryption=mlkem768x25519plus.native.0rtt.aGVsbG8td29ybGQ&security=none&type=tcp&packetEncoding=xudp#ML-KEM`,
  },
  {
    label: 'unknown vendor parameters and fragment settings',
    link: `vless://${ID}@203.0.113.27:443?security=tls&sni=frag.example.com&type=tcp&fragment=1%2C40-60%2C30-50&x-vendor.flag=on&noise=rand%3A10-20%2C10-20&mux=1&concurrency=8#Vendor`,
  },
  {
    label: 'no name, no parameters',
    link: `vless://${ID}@203.0.113.28:443`,
  },
];
