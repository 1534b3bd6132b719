import Link from 'next/link';

export default function Home() {
  return (
    <main>
      <h1>Agents</h1>
      <ul>
        <li>
          <Link href="/agents/chat-agent">Chat agent</Link>
        </li>
        <li>
          <Link href="/agents/form-agent">Form agent</Link>
        </li>
      </ul>
    </main>
  );
}
